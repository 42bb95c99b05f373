import { Button, Center, HStack, Heading, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useLocation, useParams } from 'react-router'
import { CheckIcon } from '../../components/outlineIcons'
import { formatRial } from '../../lib/format'
import { toPersianDigits } from '../../lib/digits'
import { SectionCard } from '../../components/SectionCard'
import { newSendPath, type SuccessState } from './successState'

/** /send-sms/success-send/{id}: the send was accepted. */
export default function SuccessSendPage() {
  const { id = '' } = useParams()
  const result = useLocation().state as SuccessState | null
  const scheduled = result?.status === 'scheduled'
  return (
    <SectionCard py={{ base: '10', md: '16' }} data-testid="send-success">
      <Center>
        <Stack align="center" gap="4" textAlign="center" maxW="md">
          <Center boxSize="20" rounded="full" bg="green.subtle" color="green.fg">
            <CheckIcon boxSize="10" />
          </Center>
          <Heading size="lg">{scheduled ? 'ارسال زمان‌بندی شد' : 'ارسال با موفقیت ثبت شد'}</Heading>
          <Text color="app.muted">
            {scheduled ? 'پیامک در زمان تعیین‌شده ارسال می‌شود.' : 'پیامک‌ها در صف ارسال قرار گرفتند؛ روند ارسال را در گزارش به‌صورت زنده ببینید.'}
          </Text>
          <Stack gap="1" fontSize="sm">
            <Text>
              شناسه ارسال: <bdi>{toPersianDigits(id)}</bdi>
            </Text>
            {result?.price !== undefined && <Text>هزینه: {formatRial(result.price)}</Text>}
          </Stack>
          <HStack gap="3" wrap="wrap" justify="center">
            <Button asChild colorPalette="brand" data-testid="goto-report">
              <RouterLink to={`/reports/${id}`}>مشاهده گزارش</RouterLink>
            </Button>
            <Button asChild variant="outline" data-testid="new-send">
              <RouterLink to={newSendPath(result)}>
                ارسال جدید
              </RouterLink>
            </Button>
          </HStack>
        </Stack>
      </Center>
    </SectionCard>
  )
}
