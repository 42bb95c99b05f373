import { Badge, Box } from '@chakra-ui/react'
import { recipientStatusInfo, sendStatusInfo } from '../lib/statuses'

export function SendStatusBadge({ status }: { status: string | undefined }) {
  const info = sendStatusInfo(status)
  return (
    <Badge colorPalette={info.color} variant="subtle" rounded="full" px="2.5" gap="1.5" data-testid="send-status" data-status={status}>
      <Box boxSize="1.5" rounded="full" bg="colorPalette.solid" animation={status === 'sending' ? 'pulse 1.2s ease-in-out infinite' : undefined} />
      {info.label}
    </Badge>
  )
}

export function RecipientStatusBadge({ status }: { status: number | string | undefined }) {
  const info = recipientStatusInfo(status)
  return (
    <Badge colorPalette={info.color} variant="subtle" rounded="full" px="2.5">
      {info.label}
    </Badge>
  )
}
