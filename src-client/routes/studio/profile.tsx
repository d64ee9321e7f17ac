// /studio/profile: a creator edits their instructor profile (name shown, title, Markdown bio, links, photo). The
// server checks that the caller is a creator (creatorProcedure) and writes only their own profile; a non-creator
// is sent to /teach.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, redirect } from '@tanstack/react-router'
import { useState } from 'react'
import { StudioPage } from '#client/components/studio/StudioPage.tsx'
import { LINK_KEYS, LINK_LABELS } from '#client/components/teach/CreatorLinks.tsx'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ProfilePhoto } from '#client/components/ui/SafeImage.tsx'
import { LoadingState, Spinner } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { uploadImage } from '#client/components/ui/upload-image.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { requireUser } from '#client/lib/session.ts'
import { pickWhilePending, submitWhilePending } from '#client/lib/while-pending.ts'
import { BIO_MAX, profileInput } from '#shared/schemas/creators.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/studio/profile')({
  beforeLoad: async ({ context, location, preload }) => {
    const user = await requireUser(context, location.href, { preload })
    if (!user.isCreator) throw redirect({ to: '/teach' })
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.creators.profile.queryOptions()),
  head: () => ({ meta: [{ title: 'Your instructor profile | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your profile…" />,
  errorComponent: routeError('Could not load your profile'),
  component: ProfilePage,
})

/** The ring of the global `:focus-visible` rule, on the label whose hidden file input has the keyboard's focus. */
const photoPicker = css({ '&:has(:focus-visible)': { outline: '2px solid var(--focus-ring)', outlineOffset: '2px' } })

const FIELDS = ['name', 'title', 'bio', 'website', 'linkedin', 'youtube'] as const

function ProfilePage() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { data: profile } = useSuspenseQuery(trpc.creators.profile.queryOptions())
  const [bioLength, setBioLength] = useState(profile.bio.length)
  const [photoBusy, setPhotoBusy] = useState(false)
  const save = useMutation(
    trpc.creators.updateProfile.mutationOptions({
      onSuccess: async (saved) => {
        queryClient.setQueryData(trpc.creators.profile.queryKey(), saved)
        await queryClient.invalidateQueries({ queryKey: trpc.creators.instructor.queryKey({ slug: saved.slug }) })
        notify('success', 'Profile saved')
      },
    }),
  )

  const { errors, formError, formProps } = useSubmitForm({
    fields: FIELDS,
    schema: profileInput,
    nested: 'links',
    read: (form) => ({
      name: form.get('name'),
      title: form.get('title'),
      bio: form.get('bio'),
      links: { website: form.get('website'), linkedin: form.get('linkedin'), youtube: form.get('youtube') },
    }),
    send: (input) => save.mutateAsync(input),
  })

  async function onPhoto(file: File | undefined) {
    if (!file) return
    setPhotoBusy(true)
    const stored = await uploadImage('/api/creator/profile-photo', file, 'imageUrl').finally(() => setPhotoBusy(false))
    if (!stored) return
    notify('success', stored.message ?? 'Photo updated')
    await queryClient.invalidateQueries({ queryKey: trpc.creators.pathKey() })
  }

  return (
    <StudioPage
      title="Your instructor profile"
      intro={
        <>
          Learners see it at{' '}
          <Link
            to="/instructors/$slug"
            params={{ slug: profile.slug }}
            className={css({ textDecoration: 'underline' })}
          >
            /instructors/{profile.slug}
          </Link>
          .
        </>
      }
      introNamesAddress
    >
      <div className={css({ display: 'flex', gap: '4', alignItems: 'center', flexWrap: 'wrap' })}>
        <ProfilePhoto src={profile.imageUrl} alt="Your profile photo" size={96} />
        {/* The file input is visually hidden in a button-like label: the label draws the keyboard's focus ring. While
            uploading it is aria-disabled (no new pick), not disabled, which would drop the focus to the page. */}
        <label className={cx(button({ variant: 'outline' }), photoPicker)}>
          {photoBusy ? <Spinner label="Uploading" /> : null}
          {photoBusy ? 'Uploading…' : 'Change photo'}
          <input
            type="file"
            accept="image/*"
            className={css({ srOnly: true })}
            {...pickWhilePending(photoBusy, (event) => void onPhoto(event.currentTarget.files?.[0]))}
          />
        </label>
      </div>
      <form
        {...SCRIPT_ONLY_FORM}
        {...formProps}
        aria-label="Instructor profile"
        className={css({ display: 'flex', flexDir: 'column', gap: '5' })}
      >
        <FormAlert>{formError}</FormAlert>
        <TextField
          label="Name shown"
          name="name"
          required
          maxLength={100}
          defaultValue={profile.name}
          error={errors.name}
        />
        <TextField
          label="Title"
          name="title"
          required
          maxLength={120}
          defaultValue={profile.title}
          error={errors.title}
        />
        <TextAreaField
          label="Bio (Markdown)"
          name="bio"
          rows={10}
          maxLength={BIO_MAX}
          defaultValue={profile.bio}
          onInput={(event) => setBioLength(event.currentTarget.value.length)}
          hint={`${bioLength} of ${BIO_MAX} characters. **bold**, _italic_, lists and links work.`}
          error={errors.bio}
        />
        {LINK_KEYS.map((key) => (
          <TextField
            key={key}
            label={LINK_LABELS[key]}
            name={key}
            type="url"
            defaultValue={profile.links[key] ?? ''}
            error={errors[key]}
          />
        ))}
        <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(save.isPending)}>
          {save.isPending ? <Spinner label="Saving" /> : null}
          {save.isPending ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </StudioPage>
  )
}
