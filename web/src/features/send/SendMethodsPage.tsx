import { Button, HStack, SimpleGrid, Stack } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { ClockIcon, GiftIcon } from '../../components/outlineIcons'
import { SectionCard } from '../../components/SectionCard'
import { MethodCard } from '../../components/MethodCard'
import { SEND_METHODS } from '../../components/sendMethods'

/** /send-sms: choose how to send. */
export default function SendMethodsPage() {
  return (
    <Stack gap="5">
      <SectionCard
        title="روش ارسال را انتخاب کنید"
        description="پیامک خود را با یکی از روش‌های زیر به مخاطبان برسانید."
        actions={
          <HStack gap="2" wrap="wrap">
            <Button asChild size="sm" variant="outline" colorPalette="brand" data-testid="goto-occasions">
              <RouterLink to="/send-sms/occasions">
                <GiftIcon /> پیام مناسبتی
              </RouterLink>
            </Button>
            <Button asChild size="sm" variant="outline" colorPalette="brand" data-testid="goto-campaigns">
              <RouterLink to="/send-sms/campaigns">
                <ClockIcon /> ارسال‌های زمان‌بندی‌شده و کمپین‌ها
              </RouterLink>
            </Button>
          </HStack>
        }
      >
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="3">
          {SEND_METHODS.map((m) => (
            <MethodCard key={m.key} method={m} />
          ))}
        </SimpleGrid>
      </SectionCard>
    </Stack>
  )
}
