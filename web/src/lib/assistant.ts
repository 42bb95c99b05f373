import { useMutation } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { api } from './api'

/** A quick action of the writing assistant (spec §4); '' is a free chat request. */
export type AssistantAction = '' | 'shorter' | 'longer' | 'friendly' | 'formal'

/** One chat message (spec §3 AI assistant message): its text and who wrote it. */
export interface AssistantMessage {
  type: 'user' | 'ai'
  text: string
  /** A reply's parts and characters as the server counted them (tracked links at their sent length). */
  parts?: number
  characters?: number
}

/** POST /panel/agent: the request text, the conversation (none on the first request) and the budget. */
export interface AssistantAsk {
  text: string
  conversation_id?: number
  action?: AssistantAction
  /** The editor's text, which a free request may be about. */
  draft?: string
  /** The part budget the reply must fit (1–3). */
  parts: number
  /** Whether «لغو۱۱» will be appended (it counts toward the parts). */
  cancel11: boolean
}

/** The reply: data.thought and data.conversation_id, with the reply's counter figures. */
export interface AssistantReply {
  thought: string
  conversation_id: number
  parts: number
  characters: number
  model: string
}

export const askAssistant = (a: AssistantAsk) => api.post<AssistantReply>('/panel/agent', a)

/** The quick actions and their labels (also the user's message shown for them). */
export const QUICK_ACTIONS: { action: Exclude<AssistantAction, ''>; label: string }[] = [
  { action: 'shorter', label: 'کوتاه‌تر' },
  { action: 'longer', label: 'بلندتر' },
  { action: 'friendly', label: 'لحن صمیمی' },
  { action: 'formal', label: 'لحن رسمی' },
]

/** How long the copy button shows its confirmation (spec §4). */
export const COPY_RESET_MS = 1000
/** The chat's height in px (spec §9). */
export const CHAT_HEIGHT = 290
/** The part budgets a user can pick. */
export const PART_BUDGETS = [1, 2, 3] as const

/** The text a quick action rewrites: the last reply, or else the editor's text. */
export function actionSource(messages: AssistantMessage[], draft: string): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].type === 'ai') return messages[i].text
  return draft.trim()
}

/** Whether the send button may be used: some text, and no reply awaited (spec §5). */
export const canSend = (text: string, pending: boolean) => text.trim() !== '' && !pending

/**
 * A conversation with the assistant: it starts without an id and takes the one of the first
 * reply; `pending` holds while a reply is awaited.
 */
export function useAssistantChat() {
  const [messages, setMessages] = useState<AssistantMessage[]>([])
  const [conversationId, setConversationId] = useState<number | undefined>(undefined)
  const mutation = useMutation({ mutationFn: askAssistant })
  const { mutate, reset: resetMutation } = mutation
  const send = useCallback(
    (ask: Omit<AssistantAsk, 'conversation_id'>, shown: string) => {
      setMessages((m) => [...m, { type: 'user', text: shown }])
      mutate(
        { ...ask, conversation_id: conversationId },
        {
          onSuccess: (r) => {
            setConversationId(r.conversation_id)
            setMessages((m) => [...m, { type: 'ai', text: r.thought, parts: r.parts, characters: r.characters }])
          },
        },
      )
    },
    [conversationId, mutate],
  )
  const reset = useCallback(() => {
    setMessages([])
    setConversationId(undefined)
    resetMutation()
  }, [resetMutation])
  return { messages, conversationId, pending: mutation.isPending, error: mutation.error, send, reset }
}

export type AssistantChat = ReturnType<typeof useAssistantChat>
