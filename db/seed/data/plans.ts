import type { SeedComparisonFeature, SeedPlan } from './types.ts'

export const plans: SeedPlan[] = [
  {
    id: 'basic',
    name: 'Basic',
    description: 'Everything you need to publish your first courses and start selling.',
    monthlyPrice: '9.99',
    annualPrice: '99.99',
    features: [
      'Publish up to 5 courses',
      'Unlimited students',
      '10 GB video storage',
      'Quizzes and completion certificates',
      'Secure checkout with card and PayPal',
      'Email support',
    ],
    isPopular: false,
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'Advanced tools for growing creators who want to scale their course business.',
    monthlyPrice: '19.99',
    annualPrice: '199.99',
    features: [
      'Publish up to 25 courses',
      'Unlimited students',
      '100 GB video storage',
      'Custom domain',
      'Coupons, bundles and drip content',
      'Advanced sales and engagement analytics',
      'Up to 3 team members',
      'Priority email support',
    ],
    isPopular: true,
    badge: 'Most Popular',
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'Custom-branded learning for academies, teams and organisations at scale.',
    monthlyPrice: '49.99',
    annualPrice: '499.99',
    features: [
      'Unlimited courses',
      'Unlimited video storage',
      'White-label branding',
      'Unlimited team members with roles',
      'Full API access, webhooks and single sign-on',
      'Dedicated success manager',
      '24/7 priority support',
    ],
    isPopular: false,
  },
]

export const comparisonFeatures: SeedComparisonFeature[] = [
  { name: 'Published courses', starter: '5 courses', professional: '25 courses', enterprise: 'Unlimited' },
  { name: 'Students', starter: 'Unlimited', professional: 'Unlimited', enterprise: 'Unlimited' },
  { name: 'Video storage', starter: '10 GB', professional: '100 GB', enterprise: 'Unlimited' },
  { name: 'Quizzes and certificates', starter: true, professional: true, enterprise: true },
  { name: 'Custom domain', starter: false, professional: true, enterprise: true },
  { name: 'Coupons, bundles and drip content', starter: false, professional: true, enterprise: true },
  { name: 'Advanced analytics', starter: false, professional: true, enterprise: true },
  // Besides the owner (creator-plans.ts): Basic has no co-instructors, Pro up to 3.
  { name: 'Team members', starter: 'Just you', professional: 'You + 3', enterprise: 'Unlimited' },
  { name: 'API access, webhooks and single sign-on', starter: false, professional: false, enterprise: true },
  { name: 'Support', starter: 'Email', professional: 'Priority email', enterprise: '24/7 dedicated' },
]
