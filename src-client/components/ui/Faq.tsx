import { Accordion } from '@ark-ui/react/accordion'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { Icon } from './icons.tsx'

export interface FaqItem {
  question: string
  answer: ReactNode
}

/** Questions and answers as an accordion: one open at a time, keyboard operable (Ark UI). */
export function Faq({ items, label = 'Frequently asked questions' }: { items: FaqItem[]; label?: string }) {
  return (
    <Accordion.Root
      collapsible
      aria-label={label}
      className={css({ display: 'grid', gap: '3', maxW: '3xl', mx: 'auto' })}
    >
      {items.map((item) => (
        <Accordion.Item
          key={item.question}
          value={item.question}
          className={css({ bg: 'surface', borderWidth: '1px', borderColor: 'line', borderRadius: 'control' })}
        >
          <h3>
            <Accordion.ItemTrigger
              className={css({
                w: 'full',
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'center',
                gap: '4',
                p: '4',
                textAlign: 'left',
                fontWeight: 'semibold',
                cursor: 'pointer',
              })}
            >
              {item.question}
              <Accordion.ItemIndicator
                className={css({ transition: 'transform .2s', _open: { transform: 'rotate(180deg)' } })}
              >
                <Icon name="chevronDown" size={18} />
              </Accordion.ItemIndicator>
            </Accordion.ItemTrigger>
          </h3>
          <Accordion.ItemContent className={css({ px: '4', pb: '4', color: 'fg.muted' })}>
            {item.answer}
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  )
}
