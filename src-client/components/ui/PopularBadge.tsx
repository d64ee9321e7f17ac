import type { ReactNode } from 'react'
import { css } from '#styled-system/css'

/** The pill above a highlighted plan or package card ('Most Popular'). */
export function PopularBadge({ children }: { children: ReactNode }) {
  return (
    <span
      className={css({
        position: 'absolute',
        top: '-3',
        left: '50%',
        transform: 'translateX(-50%)',
        bg: 'accent',
        color: 'white',
        fontSize: 'xs',
        fontWeight: 'bold',
        px: '3',
        py: '1',
        borderRadius: 'full',
      })}
    >
      {children}
    </span>
  )
}
