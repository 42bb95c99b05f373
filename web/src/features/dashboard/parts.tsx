import { Link, Skeleton, Stack } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { Link as RouterLink } from 'react-router'
import { EmptyState, ErrorState } from '../../components/States'
import type { BoardItem } from './api'

/** A link to a panel path (in the panel) or an https URL (same window or a new tab). */
export function ItemLink({ item, newTab, children, ...rest }: { item: BoardItem; newTab: boolean; children: ReactNode } & Record<string, unknown>) {
  if (item.link.startsWith('/')) {
    return (
      <Link asChild {...rest}>
        <RouterLink to={item.link}>{children}</RouterLink>
      </Link>
    )
  }
  return (
    <Link href={item.link} {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})} {...rest}>
      {children}
    </Link>
  )
}

interface ListStateProps {
  isPending: boolean
  isError: boolean
  onRetry: () => void
  empty: string
  description?: ReactNode
  action?: ReactNode
}

/** Loading, error and empty states of a dashboard list. */
export function ListState({ isPending, isError, onRetry, empty, description, action }: ListStateProps) {
  if (isPending) return <Stack gap="2">{[0, 1].map((i) => <Skeleton key={i} h="10" rounded="lg" />)}</Stack>
  if (isError) return <ErrorState onRetry={onRetry} py="4" />
  return <EmptyState title={empty} description={description} action={action} py="4" />
}
