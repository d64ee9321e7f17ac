import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { button } from '../components/ui/button.ts'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/examples')({
  head: () =>
    seo({
      title: 'Examples',
      description: 'How creators use SkillForge: coding bootcamps, design studios, finance trainers and consultancies.',
    }),
  component: () => (
    <InfoPage
      title="Examples"
      intro="A few of the ways creators and businesses use SkillForge to teach and sell."
      sections={[
        {
          title: 'A Coding Instructor Goes Full-Time',
          body: [
            'A web developer published a React and TypeScript course with free preview lessons. Featured placement and bundles brought in more than 4,000 students in six months, enough to teach full-time.',
          ],
        },
        {
          title: 'A Design Studio Sells Workshops',
          body: [
            'A brand design studio moved its live workshops to recorded courses with certificates of completion, and now sells them to agencies on the Pro plan with three team members managing content.',
          ],
        },
        {
          title: 'A Finance Trainer Builds an Academy',
          body: [
            'A financial modelling trainer used the Enterprise plan to run a branded academy for corporate clients, with single sign-on for their staff and detailed progress reports.',
          ],
        },
        {
          title: 'A Founder Launches in the UK and USA',
          body: [
            'An instructor selling worldwide formed a UK limited company and a Wyoming LLC through our company formation services, then used an SEO audit to grow organic traffic to their courses.',
          ],
        },
      ]}
    >
      <p>
        <Link to="/courses" className={button()}>
          Browse Courses
        </Link>
      </p>
    </InfoPage>
  ),
})
