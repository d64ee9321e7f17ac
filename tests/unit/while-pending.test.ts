// whilePending (src-client/lib/while-pending.ts): a control whose save runs is aria-disabled, never disabled, and its
// action is ignored meanwhile; an ignored click is cancelled, so a submit button sends its form only once.
import { describe, expect, it, vi } from 'vitest'
import { submitWhilePending, whilePending } from '../../src-client/lib/while-pending.ts'

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
