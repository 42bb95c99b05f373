import { Accordion, Button, HStack, Input, SimpleGrid, Span, Stack, Switch, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useLocation } from 'react-router'
import { useDebouncedValue } from '../../components/hooks'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { EmptyState, ErrorState, LoadingState } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useFAQCategories, useFAQs, useSaveTicketSettings, useSendFeedback, useTicketSettings, useTicketSummary } from './api'
import { ContactList } from './ContactInfoPage'
import { STATES } from './logic'
import { Stars } from './parts'

/** /support: the hub — the account's requests by state, FAQ search, contact info, feedback and the answer-SMS setting. */
export default function SupportHubPage() {
  return (
    <Stack gap="4">
      <Summary />
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
        <FAQSection />
        <Stack gap="4">
          <SectionCard title="تماس با ما"><ContactList /></SectionCard>
          <SettingsCard />
          <FeedbackCard />
        </Stack>
      </SimpleGrid>
    </Stack>
  )
}

function Summary() {
  const q = useTicketSummary()
  return (
    <SectionCard
      title="پشتیبانی"
      description="درخواست‌های شما و وضعیت هر کدام؛ برای مشکل تازه تیکت و برای ایده‌ها پیشنهاد ثبت کنید."
      actions={
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm" variant="outline"><RouterLink to="/support/tickets">همه درخواست‌ها</RouterLink></Button>
          <Button asChild size="sm" variant="outline"><RouterLink to="/support/create-suggestion-request" data-testid="hub-new-suggestion">ثبت پیشنهاد</RouterLink></Button>
          <Button asChild size="sm" colorPalette="brand"><RouterLink to="/support/create-ticket" data-testid="hub-new-ticket"><PlusIcon /> تیکت جدید</RouterLink></Button>
        </HStack>
      }
    >
      {q.isLoading ? (
        <LoadingState py="4" />
      ) : q.isError && !q.data ? (
        <ErrorState py="4" onRetry={() => void q.refetch()} />
      ) : (
        <SimpleGrid columns={{ base: 2, md: 3, xl: 6 }} gap="3" data-testid="support-summary">
          {STATES.map((s) => {
            const n = q.data?.find((c) => c.state === s.value)?.count ?? 0
            return (
              <Button key={s.value} asChild variant="outline" h="auto" py="3" flexDirection="column" alignItems="start" gap="1" whiteSpace="normal">
                <RouterLink to={`/support/tickets?state=${s.value}`}>
                  <Text fontSize="xs" color={`${s.palette}.fg`}>{s.label}</Text>
                  <Text fontWeight="black" fontSize="xl">{toPersianDigits(n)}</Text>
                </RouterLink>
              </Button>
            )
          })}
        </SimpleGrid>
      )}
    </SectionCard>
  )
}

function FAQSection() {
  const [search, setSearch] = useState('')
  const [category, setCategory] = useState(0)
  const debounced = useDebouncedValue(search.trim(), 400)
  const cats = useFAQCategories()
  const q = useFAQs(category, debounced)
  return (
    <SectionCard title="پرسش‌های متداول" gridColumn={{ lg: 'span 2' }}>
      <Stack gap="3">
        <Input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="جستجو در پرسش‌ها و پاسخ‌ها" aria-label="جستجو در پرسش‌های متداول" data-testid="faq-search" />
        <HStack gap="2" wrap="wrap">
          <Button size="xs" variant={category === 0 ? 'solid' : 'outline'} colorPalette="brand" onClick={() => setCategory(0)}>همه</Button>
          {(cats.data ?? []).map((c) => (
            <Button key={c.id} size="xs" variant={category === c.id ? 'solid' : 'outline'} colorPalette="brand" onClick={() => setCategory(c.id)}>
              {c.title} <Span color="inherit" opacity="0.7">({toPersianDigits(c.count)})</Span>
            </Button>
          ))}
        </HStack>
        {q.isLoading ? (
          <LoadingState />
        ) : q.isError && !q.data ? (
          <ErrorState onRetry={() => void q.refetch()} />
        ) : !q.data?.length ? (
          <EmptyState title="پرسشی یافت نشد" description="می‌توانید پرسش خود را با ثبت تیکت از پشتیبانی بپرسید." />
        ) : (
          <Accordion.Root collapsible data-testid="faq-list">
            {q.data.map((f) => (
              <Accordion.Item key={f.id} value={String(f.id)}>
                <Accordion.ItemTrigger cursor="pointer">
                  <Span flex="1" textAlign="start" fontWeight="medium">{f.question}</Span>
                  <Accordion.ItemIndicator />
                </Accordion.ItemTrigger>
                <Accordion.ItemContent>
                  <Accordion.ItemBody color="app.muted" fontSize="sm" whiteSpace="pre-wrap">{f.answer}</Accordion.ItemBody>
                </Accordion.ItemContent>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        )}
      </Stack>
    </SectionCard>
  )
}

function SettingsCard() {
  const q = useTicketSettings()
  const save = useSaveTicketSettings()
  return (
    <SectionCard title="اطلاع‌رسانی">
      <Switch.Root
        checked={q.data?.sms_on_answer ?? true}
        disabled={!q.data || save.isPending}
        colorPalette="brand"
        onCheckedChange={(e) => save.mutate({ sms_on_answer: e.checked }, { onSuccess: () => toaster.create({ type: 'success', title: 'تنظیم ذخیره شد' }) })}
        data-testid="ticket-sms-toggle"
      >
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label fontSize="sm">وقتی پشتیبانی پاسخ داد، به شماره همراه مالک حساب پیامک بفرست</Switch.Label>
      </Switch.Root>
    </SectionCard>
  )
}

function FeedbackCard() {
  const { pathname } = useLocation()
  const [rating, setRating] = useState<number | null>(null)
  const [text, setText] = useState('')
  const send = useSendFeedback()
  const submit = () =>
    rating &&
    send.mutate(
      { rating, text, page: pathname },
      {
        onSuccess: () => {
          setRating(null)
          setText('')
          toaster.create({ type: 'success', title: 'از بازخورد شما سپاسگزاریم' })
        },
      },
    )
  return (
    <SectionCard title="بازخورد شما درباره پنل">
      <Stack gap="2">
        <Stars value={rating} onRate={setRating} testId="feedback-rating" />
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={2000} placeholder="چه چیزی را بهتر کنیم؟" aria-label="متن بازخورد" />
        {send.error && <ServerMessage error={send.error} color="fg.error" />}
        <Button size="sm" alignSelf="flex-start" colorPalette="brand" disabled={!rating} loading={send.isPending} onClick={submit} data-testid="feedback-send">
          ارسال بازخورد
        </Button>
      </Stack>
    </SectionCard>
  )
}
