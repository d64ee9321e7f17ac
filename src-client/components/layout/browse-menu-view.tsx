// The header's Browse menu (Ark UI Menu), loaded on first use through DeferredMenu.
import { Menu } from '@ark-ui/react/menu'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import type { DeferredMenuProps } from '../ui/DeferredMenu.tsx'
import { Icon } from '../ui/icons.tsx'
import { menuContent, menuItem } from '../ui/menu-styles.ts'
import { browseTrigger } from './header-styles.ts'
import { browseLinks } from './nav-links.ts'

export default function BrowseMenu({ defaultOpen, focusTrigger }: DeferredMenuProps) {
  const trigger = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focusTrigger) trigger.current?.focus()
  }, [focusTrigger])
  return (
    <Menu.Root defaultOpen={defaultOpen} positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger ref={trigger} className={browseTrigger}>
        Browse <Icon name="chevronDown" size={16} />
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={menuContent}>
          {browseLinks.map((item) => (
            <Menu.Item key={item.label} value={item.label} asChild className={menuItem}>
              <Link to="/courses" search={item.category ? { category: item.category } : {}}>
                {item.label}
              </Link>
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
