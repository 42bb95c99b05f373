import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link } from 'react-router'
import { toPersianDigits } from '../lib/digits'
import { useLinkSettings, useTrackedLinks, type TrackedLink } from '../lib/links'
import { LinkStatusBadge } from './LinkStatusBadge'
import { Modal } from './Overlays'
import { EmptyState, ErrorState, LoadingState } from './States'

export interface TrackedLinkPickerProps {
  open: boolean
  onClose: () => void
  /** Called with the chosen link; the dialog closes itself. */
  onPick: (link: TrackedLink) => void
}

/** «درج لینک ردیابی»: the account's tracked links; the chosen one goes into the text as {link:ID}. */
export function TrackedLinkPicker({ open, onClose, onPick }: TrackedLinkPickerProps) {
  const settings = useLinkSettings(open)
  const links = useTrackedLinks({ limit: 50 }, open && !!settings.data?.enabled)
  const [chosen, setChosen] = useState<TrackedLink | null>(null)
  const pick = () => {
    if (!chosen) return
    onPick(chosen)
    onClose()
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="درج لینک ردیابی"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" disabled={!chosen} onClick={pick} data-testid="tracked-link-insert">درج در متن</Button>
        </>
      }
    >
      <Stack gap="3" data-testid="tracked-link-picker">
        <Text fontSize="sm" color="fg.muted">
          هر گیرنده لینک کوتاه خودش را می‌گیرد ({toPersianDigits(settings.data?.link_length ?? 0)} کاراکتر) تا کلیک‌ها جدا شمرده شوند.
        </Text>
        <PickerBody settings={settings} links={links} chosen={chosen} onChoose={setChosen} />
      </Stack>
    </Modal>
  )
}

function PickerBody({ settings, links, chosen, onChoose }: {
  settings: ReturnType<typeof useLinkSettings>
  links: ReturnType<typeof useTrackedLinks>
  chosen: TrackedLink | null
  onChoose: (l: TrackedLink) => void
}) {
  if (settings.isLoading) return <LoadingState />
  if (settings.isError) return <ErrorState onRetry={() => void settings.refetch()} />
  if (!settings.data?.enabled) return <EmptyState title="ردیابی لینک فعال نیست" description={settings.data?.message} />
  if (links.isLoading) return <LoadingState />
  if (links.isError) return <ErrorState onRetry={() => void links.refetch()} />
  const rows = links.data?.rows ?? []
  if (rows.length === 0) {
    return (
      <EmptyState
        title="هنوز لینکی نساخته‌اید"
        action={<Button asChild size="sm" variant="outline"><Link to="/links">ساخت لینک ردیابی</Link></Button>}
      />
    )
  }
  return (
    <Stack gap="1.5" role="listbox" aria-label="لینک‌های ردیابی">
      {rows.map((l) => (
        <Box
          key={l.id}
          as="button"
          role="option"
          aria-selected={chosen?.id === l.id}
          textAlign="start"
          p="2.5"
          borderWidth="1px"
          borderRadius="md"
          borderColor={chosen?.id === l.id ? 'brand.solid' : 'border'}
          bg={chosen?.id === l.id ? 'brand.subtle' : undefined}
          onClick={() => l.status === 'approved' && onChoose(l)}
          aria-disabled={l.status !== 'approved'}
          opacity={l.status !== 'approved' ? 0.6 : undefined}
          cursor={l.status !== 'approved' ? 'not-allowed' : undefined}
          title={l.status === 'pending' ? 'این لینک هنوز بررسی نشده است و تا تأیید پشتیبانی قابل درج نیست' : undefined}
          data-testid={`tracked-link-option-${l.id}`}
        >
          <HStack justify="space-between" gap="2">
            <Text fontWeight="medium">{toPersianDigits(l.title)}</Text>
            {l.status !== 'approved' && <LinkStatusBadge status={l.status} />}
          </HStack>
          <Text fontSize="xs" color="fg.muted" dir="ltr" textAlign="end" truncate>{l.url}</Text>
        </Box>
      ))}
    </Stack>
  )
}
