import { Badge, Box, Button, Spinner, Stack, Text, type BadgeProps, type StackProps } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { AlertIcon, InboxIcon, RefreshIcon } from './icons'

interface StateProps extends Omit<StackProps, 'title'> {
  title?: ReactNode
  description?: ReactNode
  /** An action under the text, e.g. a button. */
  action?: ReactNode
}

/** Nothing to show: «لیست خالی است» by default. */
export function EmptyState({ title = 'لیست خالی است', description, action, ...rest }: StateProps) {
  return (
    <Stack role="status" align="center" textAlign="center" gap="2" py="10" px="4" color="fg.muted" {...rest}>
      <Box as={InboxIcon} boxSize="10" color="fg.subtle" aria-hidden />
      <Text fontWeight="medium" color="fg">{title}</Text>
      {description && <Text fontSize="sm">{description}</Text>}
      {action}
    </Stack>
  )
}

interface ErrorStateProps extends StateProps {
  onRetry?: () => void
  retryLabel?: string
}

/** A failed load: «خطا در دریافت اطلاعات» with an optional «تلاش مجدد» button. */
export function ErrorState({ title = 'خطا در دریافت اطلاعات', description, onRetry, retryLabel = 'تلاش مجدد', action, ...rest }: ErrorStateProps) {
  return (
    <Stack role="alert" align="center" textAlign="center" gap="2" py="10" px="4" {...rest}>
      <Box as={AlertIcon} boxSize="10" color="fg.error" aria-hidden />
      <Text fontWeight="medium" color="fg">{title}</Text>
      {description && <Text fontSize="sm" color="fg.muted">{description}</Text>}
      {onRetry && (
        <Button size="sm" variant="outline" onClick={onRetry}>
          <RefreshIcon />
          {retryLabel}
        </Button>
      )}
      {action}
    </Stack>
  )
}

/** A spinner with «در حال بارگذاری». */
export function LoadingState({ title = 'در حال بارگذاری', ...rest }: Omit<StateProps, 'description' | 'action'>) {
  return (
    <Stack role="status" aria-live="polite" align="center" justify="center" gap="3" py="10" color="fg.muted" {...rest}>
      <Spinner size="lg" color="colorPalette.solid" colorPalette="brand" aria-hidden />
      <Text fontSize="sm">{title}</Text>
    </Stack>
  )
}

/** A refresh failed: the page keeps the last answer it received and says so
 * (replacing it with an error would lose what the user was reading or typing). */
export function StaleNote({ testId = 'stale-note', ...rest }: BadgeProps & { testId?: string }) {
  return (
    <Badge variant="subtle" colorPalette="orange" size="sm" whiteSpace="normal" alignSelf="flex-start" data-testid={testId} {...rest}>
      به‌روزرسانی ناموفق بود؛ آخرین اطلاعات دریافت‌شده نمایش داده می‌شود
    </Badge>
  )
}
