// A quiz's numbers for its creator: submitted attempts, learners and how many passed, the pass rate of attempts, and
// per question the share of answers that were correct.

import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css } from '#styled-system/css'
import { contentCard } from '../ui/card.ts'

type Stats = RouterOutputs['quizzes']['editor']['stats']

const cell = css({ textAlign: 'left', px: '2', py: '2', borderBottomWidth: '1px', borderColor: 'line' })

export function QuizStats({ stats }: { stats: Stats }) {
  return (
    <TitledSection
      id="quiz-stats-title"
      title="Results so far"
      className={contentCard}
      titleClassName={boxHeading}
      data-testid="quiz-stats"
    >
      {stats.attempts === 0 ? (
        <p className={css({ color: 'fg.muted' })}>No attempts yet.</p>
      ) : (
        <>
          <dl className={css({ display: 'flex', flexWrap: 'wrap', gap: '6', mb: '4' })}>
            <div>
              <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>Attempts</dt>
              <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{stats.attempts}</dd>
            </div>
            <div>
              <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>Pass rate</dt>
              <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{stats.passRatePercent ?? 0} %</dd>
            </div>
            <div>
              <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>Learners passed</dt>
              <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
                {stats.learnersPassed} of {stats.learners}
              </dd>
            </div>
          </dl>
          <div className={css({ overflowX: 'auto' })}>
            <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse' })}>
              <caption className={css({ srOnly: true })}>Share of answers correct per question</caption>
              <thead>
                <tr>
                  <th scope="col" className={cell}>
                    Question
                  </th>
                  <th scope="col" className={cell}>
                    Answered
                  </th>
                  <th scope="col" className={cell}>
                    Correct
                  </th>
                </tr>
              </thead>
              <tbody>
                {stats.questions.map((question) => (
                  <tr key={question.id}>
                    <td className={cell}>{question.prompt}</td>
                    <td className={cell}>{question.answered}</td>
                    <td className={cell}>{question.correctPercent === null ? '–' : `${question.correctPercent} %`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </TitledSection>
  )
}
