import { Badge, Box, Button, Grid, Input, InputGroup, Stack, Text, Wrap } from '@chakra-ui/react'
import { useState } from 'react'
import { Link } from 'react-router'
import { toPersianDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'
import { usePredefinedGroups, usePredefinedMessages, type PredefinedMessage } from '../lib/predefined'
import { useDebouncedValue } from './hooks'
import { SearchIcon } from './icons'
import { Modal } from './Overlays'
import { Pagination } from './Pagination'
import { EmptyState, ErrorState, LoadingState } from './States'

export interface PredefinedPickerProps {
  open: boolean
  onClose: () => void
  /** Called with the chosen message; the dialog closes itself. */
  onPick: (message: PredefinedMessage) => void
}

const PICKER_LIMIT = 8

/** «درج متن آماده»: groups, a search over titles and texts, a preview, and «درج در متن». */
export function PredefinedPicker({ open, onClose, onPick }: PredefinedPickerProps) {
  const [group, setGroup] = useState(0)
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [chosen, setChosen] = useState<PredefinedMessage | null>(null)
  const q = useDebouncedValue(search.trim(), 400)
  const groups = usePredefinedGroups({ limit: 100 }, open)
  const messages = usePredefinedMessages({ group_id: group || undefined, search: q || undefined, page, limit: PICKER_LIMIT }, open)
  const pick = () => {
    if (!chosen) return
    onPick(chosen)
    onClose()
  }
  const choose = (g: number) => {
    setGroup(g)
    setPage(1)
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title="درج متن آماده"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" disabled={!chosen} onClick={pick} data-testid="predefined-insert">درج در متن</Button>
        </>
      }
    >
      <Stack gap="4" data-testid="predefined-picker">
        <Wrap gap="1.5" role="group" aria-label="گروه‌ها">
          <GroupChip label="همه" active={group === 0} onClick={() => choose(0)} />
          {groups.data?.rows.map((g) => (
            <GroupChip key={g.id} label={`${toPersianDigits(g.title)} (${formatNumber(g.messages)})`} active={group === g.id} onClick={() => choose(g.id)} />
          ))}
        </Wrap>
        <InputGroup startElement={<SearchIcon />}>
          <Input
            value={search}
            onChange={(e) => { setSearch(e.target.value); setPage(1) }}
            placeholder="جستجو در عنوان و متن"
            aria-label="جستجو در پیام‌های آماده"
          />
        </InputGroup>
        <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="4" alignItems="start">
          {/* A fixed height, so the dialog does not move under the pointer as the list loads. */}
          <Box minH="72">
            <MessageList q={messages} chosen={chosen} onChoose={setChosen} />
          </Box>
          <Preview message={chosen} />
        </Grid>
        {!!messages.data && messages.data.meta.total > PICKER_LIMIT && (
          <Pagination compact page={page} limit={PICKER_LIMIT} total={messages.data.meta.total} onPageChange={setPage} onLimitChange={() => undefined} pageSizes={[PICKER_LIMIT]} />
        )}
      </Stack>
    </Modal>
  )
}

function GroupChip({ label, active, onClick }: { label: string; active: boolean; onClick: () => void }) {
  return (
    <Button size="xs" rounded="full" variant={active ? 'solid' : 'outline'} colorPalette="brand" aria-pressed={active} onClick={onClick}>
      {label}
    </Button>
  )
}

interface ListProps {
  q: ReturnType<typeof usePredefinedMessages>
  chosen: PredefinedMessage | null
  onChoose: (m: PredefinedMessage) => void
}

function MessageList({ q, chosen, onChoose }: ListProps) {
  if (q.isPending) return <LoadingState py="6" />
  if (q.isError) return <ErrorState py="6" onRetry={() => void q.refetch()} />
  if (!q.data.rows.length) {
    return (
      <EmptyState
        py="6"
        title="موردی یافت نشد"
        description={<Link to="/predefined-messages">ساخت پیام از پیش تعریف‌شده</Link>}
      />
    )
  }
  return (
    <Stack gap="2" role="listbox" aria-label="پیام‌های آماده" maxH="72" overflowY="auto">
      {q.data.rows.map((m) => (
        <Box
          key={m.id}
          role="option"
          aria-selected={chosen?.id === m.id}
          tabIndex={0}
          cursor="pointer"
          p="3"
          rounded="lg"
          borderWidth="1px"
          borderColor={chosen?.id === m.id ? 'brand.solid' : 'border'}
          bg={chosen?.id === m.id ? 'brand.subtle' : undefined}
          onClick={() => onChoose(m)}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onChoose(m))}
          data-testid={`predefined-option-${m.id}`}
        >
          <Text fontWeight="medium" fontSize="sm">{toPersianDigits(m.title)}</Text>
          <Text fontSize="xs" color="fg.muted" lineClamp={1}>{m.text}</Text>
        </Box>
      ))}
    </Stack>
  )
}

function Preview({ message }: { message: PredefinedMessage | null }) {
  return (
    <Stack gap="2" p="3" rounded="lg" bg="bg.muted" minH="32" aria-live="polite">
      <Text fontSize="xs" color="fg.muted">پیش‌نمایش</Text>
      {message ? (
        <>
          <Badge alignSelf="flex-start" variant="subtle">{toPersianDigits(message.group_title)}</Badge>
          <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word" data-testid="predefined-preview">{message.text}</Text>
        </>
      ) : (
        <Text fontSize="sm" color="fg.subtle">پیامی را برای پیش‌نمایش انتخاب کنید</Text>
      )}
    </Stack>
  )
}
