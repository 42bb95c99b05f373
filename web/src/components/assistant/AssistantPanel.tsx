import { Alert, Box, Button, HStack, IconButton, Spinner, Stack, Text, Textarea, Wrap } from '@chakra-ui/react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import {
  actionSource, canSend, CHAT_HEIGHT, COPY_RESET_MS, initialBudget, PART_BUDGETS, QUICK_ACTIONS, useAssistantCapabilities,
  type AssistantActionInfo, type AssistantChat, type AssistantMessage,
} from '../../lib/assistant'
import { toPersianDigits } from '../../lib/digits'
import { countSegments } from '../../lib/segments'
import { useIsMobile } from '../hooks'
import { CheckIcon, CopyIcon } from '../icons'
import { Drawer, SideModal } from '../Overlays'
import { ServerMessage } from '../ServerMessage'

export interface AssistantPanelProps {
  open: boolean
  onClose: () => void
  chat: AssistantChat
  /** The editor's text: what quick actions rewrite before the first reply. */
  draft: string
  cancel11: boolean
  /** Puts a reply into the editor. */
  onUse: (text: string) => void
}

/**
 * «۲ بخش · ۱۲۰ نویسه» for a reply: the server's figures when it sent them (tracked links counted at
 * their sent length), else counted like the editor's counter (the cancel-11 footer included).
 */
export function replyFigures(m: AssistantMessage, cancel11: boolean): string {
  const c = m.parts !== undefined && m.characters !== undefined ? m : countSegments(m.text, cancel11)
  return `${toPersianDigits(c.parts ?? 0)} بخش · ${toPersianDigits(c.characters ?? 0)} نویسه`
}

/** The copy button: its icon turns into a check for COPY_RESET_MS after a copy (spec §4). */
function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), COPY_RESET_MS)
    return () => clearTimeout(t)
  }, [copied])
  const copy = () => navigator.clipboard?.writeText(text).then(() => setCopied(true), () => setCopied(false))
  return (
    <IconButton size="xs" variant="ghost" aria-label={copied ? 'کپی شد' : 'کپی متن'} onClick={copy} data-testid="assistant-copy" data-copied={copied}>
      {copied ? <CheckIcon color="fg.success" /> : <CopyIcon />}
    </IconButton>
  )
}

/** A reply the assistant refused to give: the reason, and the text stays as it was. */
function Refusal({ m }: { m: AssistantMessage }) {
  return (
    <Box alignSelf="flex-end" maxW="88%" bg="bg.warning" color="fg" rounded="lg" px="3" py="2" borderWidth="1px" borderColor="border.warning"
      data-testid="assistant-reply" data-refused="true" role="status">
      <Text fontSize="sm" data-testid="assistant-notice">{m.notice}</Text>
    </Box>
  )
}

function Bubble({ m, cancel11, onUse }: { m: AssistantMessage; cancel11: boolean; onUse: (t: string) => void }) {
  const ai = m.type === 'ai'
  if (ai && m.refused) return <Refusal m={m} />
  return (
    <Box
      alignSelf={ai ? 'flex-end' : 'flex-start'}
      maxW="88%"
      bg={ai ? 'bg.muted' : 'brand.subtle'}
      color="fg"
      rounded="lg"
      px="3"
      py="2"
      data-testid={ai ? 'assistant-reply' : 'assistant-request'}
    >
      <Text fontSize="sm" whiteSpace="pre-wrap">{m.text}</Text>
      {ai && m.notice && <Text fontSize="xs" color="fg.warning" mt="1.5" data-testid="assistant-notice">{m.notice}</Text>}
      {ai && (
        <HStack justify="space-between" mt="1.5" gap="2" wrap="wrap">
          <Text fontSize="xs" color="fg.muted">{replyFigures(m, cancel11)}</Text>
          <HStack gap="1">
            <CopyButton text={m.text} />
            <Button size="xs" variant="subtle" colorPalette="brand" onClick={() => onUse(m.text)} data-testid="assistant-use">
              استفاده از این متن
            </Button>
          </HStack>
        </HStack>
      )}
    </Box>
  )
}

/** The chat: messages in a 290 px scrolling log, the pending bubble and the error. */
function ChatLog({ chat, cancel11, onUse, free }: Pick<AssistantPanelProps, 'chat' | 'cancel11' | 'onUse'> & { free: boolean }) {
  const end = useRef<HTMLDivElement>(null)
  // Braces: scrollIntoView may return a promise, which must not become the effect's cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' })
  }, [chat.messages.length, chat.pending])
  return (
    <Stack h={`${CHAT_HEIGHT}px`} overflowY="auto" gap="2" p="2" borderWidth="1px" rounded="lg" role="log" aria-label="گفتگو با دستیار" aria-live="polite">
      {chat.messages.length === 0 && (
        <Text fontSize="sm" color="fg.muted" p="2">
          {free
            ? 'بنویسید چه متنی لازم دارید، مثلا «یک تبلیغ برای تخفیف ۲۰ درصدی کفش تا پایان هفته بنویس»، یا متن ویرایشگر را با دکمه‌های زیر کوتاه‌تر، بلندتر، صمیمی‌تر یا رسمی‌تر کنید.'
            : 'متن ویرایشگر را با دکمه‌های زیر کوتاه‌تر، بلندتر، صمیمی‌تر یا رسمی‌تر کنید.'}
        </Text>
      )}
      {chat.messages.map((m, i) => <Bubble key={i} m={m} cancel11={cancel11} onUse={onUse} />)}
      {chat.pending && (
        <HStack alignSelf="flex-end" gap="2" color="fg.muted" fontSize="sm" data-testid="assistant-pending">
          <Spinner size="xs" /> <Text>در حال نوشتن…</Text>
        </HStack>
      )}
      {chat.error && !chat.pending && <ServerMessage error={chat.error} color="fg.error" fontSize="sm" p="2" data-testid="assistant-error" />}
      <div ref={end} />
    </Stack>
  )
}

/** The part budget the replies must fit: 1, 2 or 3 parts. */
function BudgetPicker({ value, onChange }: { value: number; onChange: (n: number) => void }) {
  return (
    <HStack gap="2" role="group" aria-label="حداکثر بخش‌های پاسخ">
      <Text fontSize="sm" color="fg.muted">حداکثر بخش:</Text>
      {PART_BUDGETS.map((n) => (
        <Button key={n} size="xs" variant={value === n ? 'solid' : 'outline'} colorPalette="brand" aria-pressed={value === n} onClick={() => onChange(n)}>
          {toPersianDigits(n)}
        </Button>
      ))}
    </HStack>
  )
}

/** The quick actions the model offers: an unavailable one is disabled and says why; each tells what it does. */
function QuickActions({ actions, disabled, onAction }: { actions: AssistantActionInfo[]; disabled: boolean; onAction: (a: AssistantActionInfo) => void }) {
  const unavailable = actions.filter((a) => !a.available)
  const notes = actions.filter((a) => a.available && a.note)
  return (
    <Stack gap="1.5">
      <Wrap gap="1.5" role="group" aria-label="اقدام‌های سریع">
        {actions.map((a) => (
          <Button key={a.action} size="xs" variant="outline" disabled={disabled || !a.available} title={a.note || undefined}
            data-available={a.available} onClick={() => onAction(a)}>
            {a.label}
          </Button>
        ))}
      </Wrap>
      {unavailable.map((a) => (
        <Text key={a.action} fontSize="xs" color="fg.muted" data-testid="assistant-unavailable">
          «{a.label}» با مدل فعلی در دسترس نیست.
        </Text>
      ))}
      {notes.length > 0 && (
        <Box as="details" fontSize="xs" color="fg.muted" data-testid="assistant-notes">
          <Box as="summary" cursor="pointer">هر دکمه چه می‌کند؟</Box>
          <Stack as="ul" gap="1" ps="4" mt="1">
            {notes.map((a) => <li key={a.action}><b>{a.label}:</b> {a.note}</li>)}
          </Stack>
        </Box>
      )}
    </Stack>
  )
}

/** The request box: free writing, when the model offers it. */
function RequestBox({ free, pending, onSend }: { free: boolean; pending: boolean; onSend: (text: string) => void }) {
  const [text, setText] = useState('')
  const submit = () => {
    if (!free || !canSend(text, pending)) return
    onSend(text.trim())
    setText('')
  }
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      submit()
    }
  }
  return (
    <HStack align="flex-end" gap="2">
      <Textarea
        aria-label="درخواست از دستیار"
        placeholder={free ? 'درخواست خود را بنویسید' : 'نوشتن آزاد با دستیار آفلاین ممکن نیست'}
        rows={2}
        resize="none"
        value={text}
        disabled={!free}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        maxLength={2700}
      />
      <Button colorPalette="brand" onClick={submit} disabled={!free || !canSend(text, pending)} data-testid="assistant-send">
        ارسال
      </Button>
    </HStack>
  )
}

/** The assistant's body: budget, chat, quick actions, what the model does not do, and the request box. */
function AssistantBody({ chat, draft, cancel11, onUse }: Omit<AssistantPanelProps, 'open' | 'onClose'>) {
  const caps = useAssistantCapabilities(true)
  const [parts, setParts] = useState(() => initialBudget(countSegments(draft, cancel11).parts))
  const source = actionSource(chat.messages, draft)
  // Until the capabilities arrive (or if they fail) everything is offered: the server decides.
  const free = caps.data?.free_writing ?? true
  const actions = caps.data?.actions ?? QUICK_ACTIONS.map((q) => ({ ...q, available: true, note: '' }))
  return (
    <Stack gap="3">
      <BudgetPicker value={parts} onChange={setParts} />
      <ChatLog chat={chat} cancel11={cancel11} onUse={onUse} free={free} />
      <QuickActions actions={actions} disabled={chat.pending || source === ''}
        onAction={(a) => chat.send({ text: source, action: a.action, parts, cancel11 }, a.label)} />
      {caps.data?.notice && (
        <Alert.Root status="info" size="sm" rounded="md" data-testid="assistant-offline">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{caps.data.notice}</Alert.Title>
        </Alert.Root>
      )}
      <RequestBox free={free} pending={chat.pending} onSend={(t) => chat.send({ text: t, draft, parts, cancel11 }, t)} />
    </Stack>
  )
}

/** The AI writing assistant: a side panel on desktop, a bottom sheet on mobile (spec §2). */
export function AssistantPanel({ open, onClose, ...body }: AssistantPanelProps) {
  const isMobile = useIsMobile()
  const title = 'دستیار هوشمند نگارش'
  if (isMobile) {
    return (
      <Drawer open={open} onClose={onClose} title={title} aria-label={title}>
        <AssistantBody {...body} />
      </Drawer>
    )
  }
  return (
    <SideModal open={open} onClose={onClose} title={title} size="md" aria-label={title}>
      <AssistantBody {...body} />
    </SideModal>
  )
}
