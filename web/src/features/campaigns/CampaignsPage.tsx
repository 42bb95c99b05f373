import { Button, Stack, Tabs } from '@chakra-ui/react'
import { useState } from 'react'
import { PlusIcon } from '../../components/outlineIcons'
import { useTabParam } from '../../lib/tabs'
import { SectionCard } from '../../components/SectionCard'
import { RecurringCampaigns } from './RecurringCampaigns'
import { ScheduledSends } from './ScheduledSends'

const TABS = [
  { label: 'ارسال‌های زمان‌بندی‌شده', description: 'ارسال‌هایی که در انتظار زمان تعیین‌شده هستند؛ زمان یا متن را تغییر دهید یا با بازگشت کامل مبلغ لغو کنید.' },
  { label: 'کمپین‌های تکرارشونده', description: 'ارسال خودکار روزانه، هفتگی، ماهانه (تقویم شمسی) یا با عبارت کرون؛ هر اجرا یک ارسال عادی در گزارش‌هاست.' },
] as const

/** /send-sms/campaigns: scheduled sends and recurring campaigns (tab in ?tab=). */
export default function CampaignsPage() {
  const [tab, setTab] = useTabParam(TABS.length)
  const [creating, setCreating] = useState(false)
  return (
    <Stack gap="5">
      <SectionCard
        title="زمان‌بندی و کمپین‌ها"
        description={TABS[tab].description}
        actions={
          tab === 1 && (
            <Button colorPalette="brand" size="sm" onClick={() => setCreating(true)} data-testid="campaign-new">
              <PlusIcon /> کمپین جدید
            </Button>
          )
        }
      >
        <Tabs.Root value={String(tab)} onValueChange={(e) => setTab(Number(e.value))} colorPalette="brand" variant="line" lazyMount unmountOnExit>
          <Tabs.List mb="4" overflowX="auto">
            {TABS.map((t, i) => (
              <Tabs.Trigger key={t.label} value={String(i)} data-testid={`campaigns-tab-${i}`} whiteSpace="nowrap">
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="0">
            <ScheduledSends />
          </Tabs.Content>
          <Tabs.Content value="1">
            <RecurringCampaigns creating={creating} onCreated={() => setCreating(false)} />
          </Tabs.Content>
        </Tabs.Root>
      </SectionCard>
    </Stack>
  )
}
