import type { SeedInstructor } from './types.ts'

export const instructors: SeedInstructor[] = [
  {
    key: 'sarah-chen',
    name: 'Sarah Chen',
    title: 'Senior Full-Stack Engineer',
    bio: 'Sarah has spent over 12 years building web products for fintech and e-commerce companies, most recently as a staff engineer leading a React and Node.js platform team. She loves turning complex topics into small, practical steps and has mentored hundreds of junior developers.',
    imageUrl: '/images/avatars/sarah-chen.svg',
  },
  {
    key: 'james-whitfield',
    name: 'James Whitfield',
    title: 'Data Engineer and Cloud Architect',
    bio: 'James designs data platforms and cloud infrastructure for retail and logistics businesses. Before moving into engineering he worked as a business analyst, so his courses always connect code to real business questions.',
    imageUrl: '/images/avatars/james-whitfield.svg',
  },
  {
    key: 'elena-rodriguez',
    name: 'Elena Rodríguez',
    title: 'Brand Designer and Creative Director',
    bio: 'Elena runs an independent design studio in Madrid that creates brand identities, websites and product interfaces for start-ups and cultural organisations. She has taught design for a decade and teaches in both English and Spanish.',
    imageUrl: '/images/avatars/elena-rodriguez.svg',
  },
  {
    key: 'marcus-johnson',
    name: 'Marcus Johnson',
    title: 'SEO and Growth Marketing Strategist',
    bio: 'Marcus has led organic search and paid acquisition for SaaS companies and online retailers for more than 10 years. He now consults for growing brands and focuses on measurable, sustainable marketing rather than quick tricks.',
    imageUrl: '/images/avatars/marcus-johnson.svg',
  },
  {
    key: 'amara-nwosu',
    name: 'Amara Nwosu',
    title: 'Content Strategist and AI Educator',
    bio: 'Amara built a newsletter and YouTube channel to more than 200,000 followers before becoming a content strategist for media brands. She teaches creators how to combine AI tools with strong editorial judgement.',
    imageUrl: '/images/avatars/amara-nwosu.svg',
  },
  {
    key: 'tom-becker',
    name: 'Tom Becker',
    title: 'Serial Entrepreneur and Start-up Mentor',
    bio: 'Tom has founded three companies, including a bootstrapped e-commerce brand he sold in 2019. He mentors early-stage founders at a European accelerator and shares the lessons he learned the hard way.',
    imageUrl: '/images/avatars/tom-becker.svg',
  },
  {
    key: 'david-okafor',
    name: 'David Okafor',
    title: 'Chartered Accountant and Company Formation Adviser',
    bio: 'David is a chartered accountant who has helped more than 2,000 founders set up and run companies in the UK and the United States. His courses explain filings, tax and compliance in plain English, with checklists you can follow.',
    imageUrl: '/images/avatars/david-okafor.svg',
  },
  {
    key: 'priya-patel',
    name: 'Priya Patel',
    title: 'Management Consultant',
    bio: 'Priya spent eight years at a global strategy consultancy before launching her own independent practice advising mid-sized companies. She specialises in growth strategy, operations and helping professionals build consulting careers.',
    imageUrl: '/images/avatars/priya-patel.svg',
  },
]
