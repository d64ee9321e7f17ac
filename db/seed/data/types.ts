// Shapes of the demo catalogue the seed writes. Prices are decimal strings ('69.99') turned into minor units
// by the seed, so the data reads like the spec.
import type { ComparisonValue, Faq, PaypalOptions, ProcessStep } from '../../types.ts'

export interface SeedCategory {
  slug: string
  name: string
  description: string
  /** One of the icon names the client knows: code, briefcase, megaphone, palette, building, lightbulb. */
  icon: string
}

export interface SeedInstructor {
  /** Stable key the courses refer to. */
  key: string
  name: string
  title: string
  bio: string
  imageUrl: string
}

export interface SeedLesson {
  title: string
  /** 'm:ss' or 'mm:ss' as the spec shows it, e.g. '12:45'. */
  duration: string
  preview?: boolean
}

export interface SeedCourse {
  id: string
  title: string
  description: string
  /** A SeedCategory slug. */
  category: string
  /** A SeedInstructor key. */
  instructor: string
  imageUrl: string
  price: string
  originalPrice?: string
  rating: number
  reviewCount: number
  studentsCount: number
  level: 'beginner' | 'intermediate' | 'advanced'
  language?: string
  certificate?: boolean
  featured?: boolean
  status?: 'published' | 'draft'
  /** How long ago the course was created; drives the 'Newest' sort and 'last updated'. */
  createdDaysAgo: number
  whatYouWillLearn: string[]
  requirements: string[]
  curriculum: { title: string; lessons: SeedLesson[] }[]
}

export interface SeedPackage {
  name: string
  price: string
  currency: 'USD' | 'GBP'
  description: string
  features: string[]
  processingTime: string
  /** Revisions the buyer may request after a delivery. */
  revisions: number
  billingInterval?: 'month'
}

export interface SeedService {
  id: string
  title: string
  description: string
  /** A SeedCategory slug. */
  category: string
  imageUrl: string
  featured: boolean
  packages: SeedPackage[]
  whatYouGet: string[]
  requirements: string[]
  processSteps: ProcessStep[]
  faqs: Faq[]
  paypal?: PaypalOptions
}

export interface SeedPlan {
  id: string
  name: string
  description: string
  monthlyPrice: string
  annualPrice: string
  features: string[]
  isPopular: boolean
  badge?: string
}

export interface SeedComparisonFeature {
  name: string
  starter: ComparisonValue
  professional: ComparisonValue
  enterprise: ComparisonValue
}

export interface SeedTestimonial {
  content: string
  author: string
  role: string
  imageUrl: string
}

export interface SeedPromoVideo {
  title: string
  description: string
  posterUrl: string
  videoUrl: string
}
