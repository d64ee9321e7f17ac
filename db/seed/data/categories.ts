import type { SeedCategory } from './types.ts'

export const categories: SeedCategory[] = [
  {
    slug: 'development',
    name: 'Development',
    description:
      'Build websites, apps and data pipelines with hands-on courses in JavaScript, Python, databases and DevOps.',
    icon: 'code',
  },
  {
    slug: 'business',
    name: 'Business',
    description:
      'Plan, finance and run a growing business with practical courses on strategy, management and operations.',
    icon: 'briefcase',
  },
  {
    slug: 'marketing',
    name: 'Marketing',
    description: 'Attract and convert customers with courses on SEO, paid ads, email, social media and analytics.',
    icon: 'megaphone',
  },
  {
    slug: 'design',
    name: 'Design',
    description:
      'Learn graphic, web and product design, from typography and colour to Figma prototypes and design systems.',
    icon: 'palette',
  },
  {
    slug: 'company-formation',
    name: 'Company Formation',
    description:
      'Understand how to set up and maintain a UK limited company or a US LLC, from registration to annual filings.',
    icon: 'building',
  },
  {
    slug: 'consultancy',
    name: 'Consultancy',
    description:
      'Build and grow a consulting practice with proven frameworks, winning proposals and client-management techniques.',
    icon: 'lightbulb',
  },
]
