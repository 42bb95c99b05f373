import { Badge, Box, Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import type { ComponentType } from 'react'
import { Link as RouterLink } from 'react-router'
import { CheckIcon, ContactsIcon, PhoneIcon, SendIcon, WalletIcon } from '../../components/outlineIcons'
import { ProgressBar } from '../../components/ProgressBar'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { toPersianDigits as fa } from '../../lib/digits'
import { useFirstSteps, type FirstStepKey, type FirstSteps as Data } from './api'

interface StepText {
  title: string
  hint: string
  action: string
  icon: ComponentType<{ boxSize?: string }>
  to: (d: Data) => string
}

/** What each step says and where it leads. */
export const STEP_TEXT: Record<FirstStepKey, StepText> = {
  credit: {
    title: 'خرید اعتبار',
    hint: 'کیف پول را از درگاه بانکی یا کارت به کارت شارژ کنید.',
    action: 'افزایش اعتبار',
    icon: WalletIcon,
    to: () => '/wallet/credit',
  },
  line: {
    title: 'دریافت خط اختصاصی',
    hint: 'تا پیش از آن از خط عمومی سامانه ارسال می‌کنید؛ خط اختصاصی را از پشتیبانی درخواست کنید.',
    action: 'درخواست خط',
    icon: PhoneIcon,
    to: () => '/support/create-ticket',
  },
  test: {
    title: 'ارسال آزمایشی به موبایل خودتان',
    hint: 'یک پیامک به شماره خودتان بفرستید و رسیدن آن را در گزارش ببینید.',
    action: 'ارسال آزمایشی',
    icon: SendIcon,
    to: (d) => (d.mobile ? `/send-sms/quick?to=${d.mobile}` : '/send-sms/quick'),
  },
  phonebook: {
    title: 'ساخت دفترچه تلفن',
    hint: 'مخاطبان را دسته‌بندی کنید یا از فایل اکسل وارد کنید تا ارسال گروهی آسان شود.',
    action: 'مخاطبین',
    icon: ContactsIcon,
    to: () => '/contacts',
  },
}

/**
 * «اولین قدم‌ها»: the first week's checklist, each step ticked from the account's
 * real state (GET /panel/first-steps); hidden once every step is done.
 */
export function FirstSteps() {
  const { data, isPending, refetch } = useFirstSteps()
  if (isPending || data?.complete) return null
  const title = 'اولین قدم‌ها'
  if (!data) {
    return (
      <SectionCard title={title}>
        <ErrorState onRetry={() => refetch()} py="4" />
      </SectionCard>
    )
  }
  const total = data.steps.length
  return (
    <SectionCard title={title} description="چهار قدم تا اولین ارسال حرفه‌ای؛ هر قدم با انجامش خودکار تیک می‌خورد."
      actions={<Badge colorPalette="brand" variant="subtle" data-testid="first-steps-count">{`${fa(data.done)} از ${fa(total)}`}</Badge>}
      data-testid="first-steps">
      <Stack gap="3">
        <ProgressBar value={total ? (data.done * 100) / total : 0} colorPalette="green" />
        <SimpleGrid as="ol" columns={{ base: 1, md: 2 }} gap="2" listStyleType="none" m="0" p="0">
          {data.steps.map((s, i) => {
            const t = STEP_TEXT[s.key]
            if (!t) return null
            return (
              <HStack as="li" key={s.key} gap="3" align="start" p="3" rounded="lg" borderWidth="1px" borderColor={s.done ? 'green.muted' : 'app.border'}
                bg={s.done ? 'green.subtle' : undefined} data-testid={`first-step-${s.key}`} data-done={s.done}>
                <Box boxSize="7" rounded="full" flexShrink={0} display="flex" alignItems="center" justifyContent="center"
                  bg={s.done ? 'green.solid' : 'app.raised'} color={s.done ? 'white' : 'brand.fg'}
                  aria-label={s.done ? 'انجام شد' : `قدم ${fa(i + 1)}`} role="img">
                  {s.done ? <CheckIcon boxSize="4" /> : <t.icon boxSize="4" />}
                </Box>
                <Stack gap="0.5" flex="1" minW="0">
                  <Text fontWeight="semibold" fontSize="sm" textDecoration={s.done ? 'line-through' : undefined}>{t.title}</Text>
                  {!s.done && <Text fontSize="xs" color="app.muted">{t.hint}</Text>}
                </Stack>
                {s.done ? (
                  <Text fontSize="xs" color="green.fg" flexShrink={0} alignSelf="center">انجام شد</Text>
                ) : (
                  <Button asChild size="xs" variant="outline" colorPalette="brand" flexShrink={0} alignSelf="center">
                    <RouterLink to={t.to(data)}>{t.action}</RouterLink>
                  </Button>
                )}
              </HStack>
            )
          })}
        </SimpleGrid>
      </Stack>
    </SectionCard>
  )
}
