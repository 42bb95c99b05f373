import { Badge } from '@chakra-ui/react'
import { LINK_STATUS, type LinkStatus } from '../lib/links'

/** A tracked link's review status (در انتظار بررسی، تأییدشده، ردشده). */
export function LinkStatusBadge({ status }: { status: LinkStatus }) {
  const s = LINK_STATUS[status] ?? LINK_STATUS.approved
  return <Badge colorPalette={s.color} variant="subtle" rounded="full" data-testid="link-status" data-status={status}>{s.label}</Badge>
}
