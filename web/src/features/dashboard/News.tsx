import { Badge, Box, Button, chakra, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { toPersianDigits as fa } from '../../lib/digits'
import { formatJalaliDate } from '../../lib/jalali'
import { useMarkNewsRead, useNews, type NewsItem } from './api'
import { ItemLink, ListState } from './parts'

/** One news item: its title (bold with a dot while unread); opening it shows the text and marks it read. */
function NewsRow({ item, onOpen }: { item: NewsItem; onOpen: (id: number) => void }) {
  const [open, setOpen] = useState(false)
  const toggle = () => {
    if (!open && !item.read) onOpen(item.id)
    setOpen(!open)
  }
  return (
    <Stack gap="1" data-testid="news-item" data-read={item.read}>
      <chakra.button type="button" onClick={toggle} aria-expanded={open} display="flex" alignItems="start" gap="2" textAlign="start"
        cursor="pointer" w="full" _hover={{ color: 'brand.fg' }}>
        <Box boxSize="2" mt="1.5" rounded="full" flexShrink={0} bg={item.read ? 'transparent' : 'brand.solid'}
          aria-label={item.read ? undefined : 'خوانده‌نشده'} role={item.read ? undefined : 'img'} />
        <Text as="h3" flex="1" fontSize="sm" fontWeight={item.read ? 'normal' : 'bold'}>{fa(item.title)}</Text>
        {item.starts_at && <Text fontSize="xs" color="app.muted" flexShrink={0}>{formatJalaliDate(item.starts_at)}</Text>}
      </chakra.button>
      {open && (
        <Stack gap="1" ps="4" data-testid="news-body">
          {item.body && <Text fontSize="sm" color="app.muted" whiteSpace="pre-line">{fa(item.body)}</Text>}
          {item.link && <ItemLink item={item} newTab fontSize="sm" color="brand.fg">ادامه</ItemLink>}
        </Stack>
      )}
    </Stack>
  )
}

/** The staff news (GET /user/news/user_news_list): unread count, opening marks read, «همه خوانده شد». */
export function News() {
  const { data, isPending, isError, refetch } = useNews()
  const mark = useMarkNewsRead()
  const unread = data?.unread ?? 0
  const actions = unread > 0 && (
    <HStack gap="2">
      <Badge colorPalette="brand" variant="solid" rounded="full" data-testid="news-unread">{fa(unread)} خوانده‌نشده</Badge>
      <Button size="xs" variant="ghost" colorPalette="brand" onClick={() => mark.mutate(undefined)} data-testid="news-read-all">
        همه خوانده شد
      </Button>
    </HStack>
  )
  return (
    <SectionCard title="اخبار و اطلاعیه‌ها" actions={actions} data-testid="dashboard-news">
      {data?.items.length ? (
        <Stack gap="3" separator={<Box borderTopWidth="1px" borderColor="app.border" />}>
          {data.items.map((n) => <NewsRow key={n.id} item={n} onOpen={(id) => mark.mutate(id)} />)}
        </Stack>
      ) : (
        <ListState isPending={isPending} isError={isError} onRetry={() => refetch()} empty="هنوز خبری منتشر نشده است"
          description="اطلاعیه‌های سامانه، تغییر تعرفه‌ها و زمان‌های به‌روزرسانی اینجا اعلام می‌شود؛ تا آن زمان راهنمای کار با پنل در مرکز پشتیبانی است."
          action={<Button asChild size="xs" variant="outline" colorPalette="brand"><RouterLink to="/support">مرکز پشتیبانی و پرسش‌های متداول</RouterLink></Button>} />
      )}
    </SectionCard>
  )
}
