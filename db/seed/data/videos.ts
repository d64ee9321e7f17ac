// The demo lesson videos (db/seed/media, made by scripts/generate-demo-videos.ts) and the lessons that play them.
// A lesson's duration in the curriculum is its video's length.
export interface DemoVideo {
  file: string
  title: string
  durationSeconds: number
}

export const DEMO_VIDEOS: DemoVideo[] = [
  { file: 'welcome.webm', title: 'Welcome to the course', durationSeconds: 75 },
  { file: 'walkthrough.webm', title: 'A guided walkthrough', durationSeconds: 120 },
  { file: 'recap.webm', title: 'Recap and next steps', durationSeconds: 60 },
]

/** Courses whose lessons (by position in the whole curriculum, from 0) are videos, and the video each plays. */
export const VIDEO_LESSONS: Record<string, { lessonIndex: number; file: string }[]> = {
  'modern-react-typescript': [
    { lessonIndex: 0, file: 'welcome.webm' },
    { lessonIndex: 1, file: 'walkthrough.webm' },
    { lessonIndex: 3, file: 'recap.webm' },
  ],
  'website-seo': [
    { lessonIndex: 0, file: 'welcome.webm' },
    { lessonIndex: 2, file: 'walkthrough.webm' },
  ],
  'startup-business-plan': [
    { lessonIndex: 0, file: 'welcome.webm' },
    { lessonIndex: 1, file: 'recap.webm' },
  ],
}

/** The seed stores a demo video under this storage key ('demo/…' is read from db/seed/media). */
export const demoVideoKey = (file: string) => `demo/${file}`
