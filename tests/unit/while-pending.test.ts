// whilePending (src-client/lib/while-pending.ts): a control whose save runs is aria-disabled, never disabled, and its
// action is ignored meanwhile; an ignored click is cancelled, so a submit button sends its form only once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { pickWhilePending, submitWhilePending, whilePending } from '../../src-client/lib/while-pending.ts'

const click = () => ({ preventDefault: vi.fn() })

describe('whilePending', () => {
  it('acts and leaves the click alone while nothing is saving', () => {
    const act = vi.fn()
    const props = whilePending(false, 'onClick', act)
    const event = click()
    props.onClick(event)
    expect(act).toHaveBeenCalledWith(event)
    expect(event.preventDefault).not.toHaveBeenCalled()
    expect(props['aria-disabled']).toBeUndefined()
    expect(props).not.toHaveProperty('disabled')
  })

  it('while saving: aria-disabled, the action ignored and the click cancelled', () => {
    const act = vi.fn()
    const props = whilePending(true, 'onClick', act)
    const event = click()
    props.onClick(event)
    expect(act).not.toHaveBeenCalled()
    expect(event.preventDefault).toHaveBeenCalled()
    expect(props['aria-disabled']).toBe(true)
  })

  it('ignores a change while saving without cancelling it (a controlled select shows its saved value again)', () => {
    const act = vi.fn()
    const event = click()
    whilePending(true, 'onChange', act).onChange(event)
    expect(act).not.toHaveBeenCalled()
    expect(event.preventDefault).not.toHaveBeenCalled()
  })

  it('a submit button: its click goes on to send the form, and is cancelled while the save runs', () => {
    const idle = click()
    submitWhilePending(false).onClick(idle)
    expect(idle.preventDefault).not.toHaveBeenCalled()
    const saving = click()
    const props = submitWhilePending(true)
    props.onClick(saving)
    expect(saving.preventDefault).toHaveBeenCalled()
    expect(props['aria-disabled']).toBe(true)
  })
})

describe('a double-click', () => {
  // A click as the browser gives it, on a control.
  const press = (control: object) => ({ currentTarget: control, preventDefault: vi.fn() })
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('acts once: the second click, before the pending state reaches the page, is cancelled', () => {
    const act = vi.fn()
    const control = {}
    const props = whilePending(false, 'onClick', act)
    props.onClick(press(control))
    const second = press(control)
    props.onClick(second)
    vi.advanceTimersToNextTimer() // TanStack Query's notice of the save, set in the first click, comes after it
    props.onClick(second)
    expect(act).toHaveBeenCalledTimes(1)
    expect(second.preventDefault).toHaveBeenCalled()
  })

  it('a submit button sends its form once', () => {
    const control = {}
    const first = press(control)
    submitWhilePending(false).onClick(first)
    expect(first.preventDefault).not.toHaveBeenCalled()
    const second = press(control)
    submitWhilePending(false).onClick(second)
    expect(second.preventDefault).toHaveBeenCalled()
  })

  it('once the page could show the save, the pending flag decides; another control is its own', () => {
    const act = vi.fn()
    const control = {}
    const props = whilePending(false, 'onClick', act)
    props.onClick(press(control))
    props.onClick(press({}))
    vi.runAllTimers()
    props.onClick(press(control))
    expect(act).toHaveBeenCalledTimes(3)
  })
})

describe('pickWhilePending', () => {
  const change = (value: string) =>
    ({ currentTarget: { value } }) as unknown as Parameters<ReturnType<typeof pickWhilePending>['onChange']>[0]

  it('takes the picked file and leaves the picker alone while nothing uploads', () => {
    const onPick = vi.fn()
    const props = pickWhilePending(false, onPick)
    const opening = click()
    props.onClick(opening)
    expect(opening.preventDefault).not.toHaveBeenCalled()
    const picked = change('C:\\fakepath\\a.pdf')
    props.onChange(picked)
    expect(onPick).toHaveBeenCalledWith(picked)
    expect(props['aria-disabled']).toBeUndefined()
    expect(props).not.toHaveProperty('disabled')
  })

  it('while uploading: aria-disabled, the picker kept shut and a dropped file ignored, the input emptied', () => {
    const onPick = vi.fn()
    const props = pickWhilePending(true, onPick)
    const opening = click()
    props.onClick(opening)
    expect(opening.preventDefault).toHaveBeenCalled()
    const dropped = change('C:\\fakepath\\b.pdf')
    props.onChange(dropped)
    expect(onPick).not.toHaveBeenCalled()
    expect(dropped.currentTarget.value).toBe('')
    expect(props['aria-disabled']).toBe(true)
  })
})
