// The instructor's daily e-mail of new questions under this course's lessons (issue 33): on unless turned off here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'

export function QuestionDigestSwitch({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const setting = useQuery(trpc.questions.digest.queryOptions({ courseId }))
  const save = useMutation(
    trpc.questions.setDigest.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.questions.digest.queryKey({ courseId }), result)
        notify('success', result.optedOut ? 'Daily question e-mail off' : 'Daily question e-mail on')
      },
      onError: (cause) => notifyError(cause, 'Could not save the setting'),
    }),
  )
  if (!setting.data) return null
  return (
    <CheckboxField
      label="E-mail me a daily digest of new questions under this course's lessons"
      className={css({ mt: '4', fontSize: 'sm' })}
      checked={!setting.data.optedOut}
      aria-busy={save.isPending}
      onChange={(event) => save.mutate({ courseId, optOut: !event.target.checked })}
    />
  )
}
