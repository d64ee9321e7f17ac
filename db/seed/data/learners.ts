// Demo learners (they cannot log in: no password) and the texts of their demo reviews. E-mails use the reserved
// .example domain, so nothing is ever sent to a real address.
import type { Insertable } from 'kysely'
import type { UsersTable } from '../../types.ts'

export const DEMO_LEARNER_COUNT = 120

const FIRST_NAMES = [
  'Amelia',
  'Oliver',
  'Isla',
  'Noah',
  'Ava',
  'Leo',
  'Mia',
  'Arthur',
  'Sofia',
  'Lucas',
  'Grace',
  'Mateo',
  'Chloe',
  'Ethan',
  'Priya',
  'Omar',
  'Hannah',
  'Kenji',
  'Zara',
  'Daniel',
  'Lucía',
  'Samuel',
  'Aisha',
  'Jack',
  'Elena',
  'Felix',
  'Maya',
  'Tom',
  'Nadia',
  'Ravi',
  'Emma',
  'Jonas',
  'Lena',
  'Carlos',
  'Fatima',
  'Henry',
  'Yuki',
  'Ruby',
  'Diego',
  'Freya',
]
const LAST_NAMES = [
  'Smith',
  'Jones',
  'Patel',
  'Garcia',
  'Brown',
  'Nguyen',
  'Wilson',
  'Khan',
  'Taylor',
  'Martínez',
  'Davies',
  'Müller',
  'Evans',
  'Okafor',
  'Thomas',
  'Rossi',
  'Johnson',
  'Kowalski',
  'Roberts',
  'Silva',
  'Walker',
  'Tanaka',
  'Wright',
  'Haddad',
  'Hughes',
  'Novak',
  'Green',
  'Lopez',
  'Hall',
  'Andersen',
  'Clarke',
]

/** The demo learners' user rows, the same every run (keyed by e-mail). */
export function demoLearnerRows(): Insertable<UsersTable>[] {
  return Array.from({ length: DEMO_LEARNER_COUNT }, (_, i) => ({
    email: `learner-${String(i + 1).padStart(3, '0')}@demo.skillforge.example`,
    email_verified: true,
    password_hash: null,
    first_name: FIRST_NAMES[i % FIRST_NAMES.length] as string,
    last_name: LAST_NAMES[(i * 7) % LAST_NAMES.length] as string,
    role: 'customer' as const,
  }))
}

const TEXTS: Record<number, string[]> = {
  5: [
    'Clear, well paced and practical. Every lesson ends with something you can use the same day.',
    'The best course I have taken on the subject. The exercises made it stick.',
    '',
    'Excellent explanations and real examples rather than toy ones. Worth every minute.',
    'I finally understand the parts that always confused me. The instructor answers questions quickly too.',
    'Exactly the right depth: no filler, and the downloads are genuinely useful afterwards.',
    '',
    'I used what I learned at work within a week. Highly recommended.',
    'Friendly, confident teaching and a sensible order of topics. I would buy another course from this instructor.',
  ],
  4: [
    'Very good overall. A couple of sections move quickly, but the material is solid.',
    'Practical and well organised. I would have liked a few more exercises at the end.',
    '',
    'Good value: clear lessons and useful downloads. Some videos could be shorter.',
    'Solid course. The examples are realistic; the last module could go a little deeper.',
    'Helpful and easy to follow. A summary sheet per section would make it perfect.',
    '',
  ],
  3: [
    'Decent introduction, though some lessons felt dated and repeated earlier material.',
    '',
    'Useful in parts. The middle sections are strong; the last module felt rushed.',
    'Fine for beginners, but I expected more hands-on practice.',
  ],
  2: [
    'Too basic for what the description promised, and several examples did not work as shown.',
    'The audio is uneven and the pace is slow. I skipped a lot of it.',
    'Some good ideas, but too much repetition and too little detail.',
  ],
  1: [
    'Not what I expected: mostly sales talk and very little that I could act on.',
    'I could not follow along; the steps shown no longer match the tools.',
  ],
}

/** A review text for a star rating (some reviews have none), picked by a stable index. */
export function demoReviewText(rating: number, index: number): string {
  const texts = TEXTS[rating] ?? ['']
  return texts[index % texts.length] as string
}
