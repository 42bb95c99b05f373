import { useMutation, useQuery } from '@tanstack/react-query'
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
  /** The assistant did not rewrite the text (its text is the text as it was, or empty); notice says why. */
  refused?: boolean
  /** A Persian note on the reply: why it was refused, that it is over the budget, that the offline model wrote it. */
  notice?: string
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
  refused: boolean
  notice?: string
}

export const askAssistant = (a: AssistantAsk) => api.post<AssistantReply>('/panel/agent', a)

/** One quick action as the configured model offers it (GET /panel/agent). */
export interface AssistantActionInfo {
  action: Exclude<AssistantAction, ''>
  label: string
  available: boolean
  /** What the action does with this model (the offline model's limits), in Persian. */
  note: string
}

/** What the assistant can do: the offline model rewrites only; free writing needs a remote model. */
export interface AssistantCapabilities {
  model: string
  remote: boolean
  free_writing: boolean
  notice?: string
  actions: AssistantActionInfo[]
}

/** The assistant's capabilities; they change only when the operator configures a model. */
export function useAssistantCapabilities(enabled: boolean) {
  return useQuery({
    queryKey: ['assistant', 'capabilities'],
    queryFn: ({ signal }) => api.get<AssistantCapabilities>('/panel/agent', undefined, signal),
    enabled,
    staleTime: 5 * 60_000,
  })
}

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

/** The text a quick action rewrites: the last reply with a text, or else the editor's text. */
export function actionSource(messages: AssistantMessage[], draft: string): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].type === 'ai' && messages[i].text !== '') return messages[i].text
  return draft.trim()
}

/** The part budget to start with: the editor's text's parts, 1–3. */
export const initialBudget = (draftParts: number) => Math.min(Math.max(draftParts, 1), 3)

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
            setMessages((m) => [...m, { type: 'ai', text: r.thought, parts: r.parts, characters: r.characters, refused: r.refused, notice: r.notice }])
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
