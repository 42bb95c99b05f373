import { Box, Button, chakra, HStack, IconButton, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState, type DragEvent, type MouseEvent, type PointerEvent } from 'react'
import { Modal } from '../../components/Overlays'
import { Link as RouterLink } from 'react-router'
import { AlertIcon, ChartIcon, ChevronLeftIcon, ChevronRightIcon, ContactsIcon, ExternalIcon, GridIcon, InboxIcon, PatternIcon, SendIcon, WalletIcon } from '../../components/outlineIcons'
import { SectionCard } from '../../components/SectionCard'
import { toPersianDigits as fa } from '../../lib/digits'
import { useBoard, type BoardItem } from './api'
import { ItemLink, ListState } from './parts'
import { dragState, dragStep, type DragState } from './swipe'

/** Spec §9: the carousel advances every 5000 ms. */
export const CAROUSEL_MS = 5000

/**
 * A banner's picture (the mobile one under 768 px), filling its box; a picture that
 * fails to load shows an error state with the banner's title instead (spec §8).
 */
export function BannerImage({ item }: { item: BoardItem }) {
  const [failed, setFailed] = useState(false)
  if (failed) {
    return (
      <HStack gap="2" w="full" h="full" justify="center" color="inherit" px="3" role="img"
        aria-label={`تصویر بنر «${fa(item.title)}» بارگذاری نشد`} data-testid="banner-image-error">
        <AlertIcon boxSize="4" color="orange.300" flexShrink={0} />
        <Text fontSize="sm" truncate>تصویر بنر بارگذاری نشد — {fa(item.title)}</Text>
      </HStack>
    )
  }
  return (
    <picture style={{ display: 'block', width: '100%', height: '100%' }}>
      {item.image_mobile && <source media="(max-width: 767px)" srcSet={item.image_mobile} />}
      <chakra.img src={item.image} alt={fa(item.title)} w="full" h="full" objectFit="cover" draggable={false}
        onError={() => setFailed(true)} data-testid="banner-image" />
    </picture>
  )
}

/** The popup of an action-1 banner: its picture linking to the target, then its text (spec §2). */
function BannerPopup({ item, onClose }: { item: BoardItem; onClose: () => void }) {
  return (
    <Modal open onClose={onClose} title={fa(item.title)}
      footer={item.link ? <Button asChild colorPalette="brand"><ItemLink item={item} newTab>مشاهده</ItemLink></Button> : undefined}>
      <Stack gap="3">
        {item.image && (
          <Box h={{ base: '40', md: '56' }} rounded="lg" overflow="hidden" data-testid="banner-popup-image">
            {item.link ? <ItemLink item={item} newTab display="block" h="full"><BannerImage item={item} /></ItemLink> : <BannerImage item={item} />}
          </Box>
        )}
        <Text whiteSpace="pre-line" data-testid="banner-popup-body">{fa(item.body || item.title)}</Text>
      </Stack>
    </Modal>
  )
}

/** One banner's face (its picture, else its text); a click follows its action (popup, same window, new tab). */
function BannerFace({ item, strip }: { item: BoardItem; strip?: boolean }) {
  const [open, setOpen] = useState(false)
  const face = item.image ? <BannerImage item={item} /> : (
    <Stack gap="1" minW="0" flex="1">
      <Text fontWeight="bold" fontSize={strip ? { base: 'xs', md: 'sm' } : { base: 'md', md: 'lg' }} truncate>{fa(item.title)}</Text>
      {!strip && item.body && <Text fontSize="sm" opacity="0.9" lineClamp={3}>{fa(item.body)}</Text>}
    </Stack>
  )
  const common = { display: 'flex', alignItems: 'center', gap: '3', w: 'full', h: 'full', color: 'inherit', textAlign: 'start' as const,
    _hover: { textDecoration: 'none', opacity: 0.95 }, 'data-testid': `banner-${item.id}` }
  if (item.action === 'popup') {
    return (
      <>
        <chakra.button type="button" onClick={() => setOpen(true)} cursor="pointer" aria-haspopup="dialog" {...common}>{face}</chakra.button>
        {open && <BannerPopup item={item} onClose={() => setOpen(false)} />}
      </>
    )
  }
  if (!item.link) return <Box {...common}>{face}</Box>
  return <ItemLink item={item} newTab={item.action === 'new_tab'} {...common}>{face}{item.action === 'new_tab' && !item.image && <ExternalIcon boxSize="4" />}</ItemLink>
}

/** The thin strip above the dashboard: only the first strip banner (spec §3, types 1 and 4). */
export function BannerStrip() {
  const { data } = useBoard()
  const first = data?.banners.find((b) => b.placement === 'strip')
  if (!first) return null
  return (
    <Box bg="brand.subtle" color="brand.fg" rounded="lg" px={first.image ? '0' : { base: '3', md: '5' }} h={{ base: '8', md: '60px' }} display="flex"
      overflow="hidden"
      alignItems="center" data-testid="banner-strip">
      <BannerFace item={first} strip />
    </Box>
  )
}

/**
 * Pointer drags on the carousel (spec §9 thresholds, rules in ./swipe): the slide
 * follows a horizontal drag and changes on release past a tenth of the width; a
 * vertical move first is left to the page's scroll; a drag does not click the banner.
 */
function useCarouselDrag(onStep: (d: number) => void) {
  const press = useRef<{ x: number; y: number; state: DragState; dragged: boolean } | null>(null)
  const [dx, setDx] = useState(0)
  const end = (e: PointerEvent<HTMLElement>) => {
    const p = press.current
    if (!p) return
    const step = dragStep(p.state, e.clientX - p.x, e.currentTarget.clientWidth)
    if (step) onStep(step)
    p.dragged = p.state === 'drag'
    p.state = 'scroll'
    setDx(0)
  }
  return {
    dx,
    dragging: dx !== 0,
    handlers: {
      onPointerDown: (e: PointerEvent<HTMLElement>) => { press.current = { x: e.clientX, y: e.clientY, state: 'pending', dragged: false } },
      onPointerMove: (e: PointerEvent<HTMLElement>) => {
        const p = press.current
        if (!p || p.state === 'scroll') return
        p.state = dragState(p.state, e.clientX - p.x, e.clientY - p.y)
        if (p.state === 'drag') {
          if (!e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.setPointerCapture(e.pointerId)
          setDx(e.clientX - p.x)
        }
      },
      onPointerUp: end,
      onPointerCancel: end,
      onClickCapture: (e: MouseEvent) => {
        if (press.current?.dragged) { press.current.dragged = false; e.preventDefault(); e.stopPropagation() }
      },
      onDragStart: (e: DragEvent) => e.preventDefault(),
    },
  }
}

/** The looping carousel of the other banners (192 px, a slide every 5000 ms, paused while hovered, focused or dragged). */
export function BannerCarousel() {
  const { data } = useBoard()
  const slides = data?.banners.filter((b) => b.placement === 'carousel') ?? []
  const [index, setIndex] = useState(0)
  const [paused, setPaused] = useState(false)
  const n = slides.length
  const step = (d: number) => setIndex((i) => (i + d + n) % n)
  const drag = useCarouselDrag(step)
  useEffect(() => {
    if (n < 2 || paused || drag.dragging) return
    const t = window.setInterval(() => setIndex((i) => (i + 1) % n), CAROUSEL_MS)
    return () => window.clearInterval(t)
  }, [n, paused, drag.dragging])
  if (!n) return null
  const at = index % n
  return (
    <Box position="relative" h="192px" rounded="card" overflow="hidden" color="white" bgGradient="to-br" gradientFrom="brand.600"
      gradientTo="brand.900" shadow="card" onMouseEnter={() => setPaused(true)} onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)} onBlur={() => setPaused(false)} aria-roledescription="carousel" data-testid="banner-carousel"
      touchAction="pan-y" userSelect="none" {...(n > 1 ? drag.handlers : {})}>
      <Box px={slides[at].image ? '0' : { base: '5', md: '7' }} py={slides[at].image ? '0' : '6'} h="full" key={slides[at].id}
        data-testid="banner-slide" data-banner-id={slides[at].id}
        style={drag.dx ? { transform: `translateX(${drag.dx}px)` } : undefined}>
        <BannerFace item={slides[at]} />
      </Box>
      {n > 1 && (
        <HStack position="absolute" bottom="2" insetInline="0" justify="center" gap="1">
          <IconButton aria-label="بنر قبلی" size="2xs" variant="ghost" color="white" onClick={() => step(-1)}><ChevronRightIcon /></IconButton>
          {slides.map((s, i) => (
            <chakra.button key={s.id} type="button" aria-label={`بنر ${i + 1}`} aria-current={i === at} onClick={() => setIndex(i)}
              boxSize="2" rounded="full" bg={i === at ? 'white' : 'whiteAlpha.500'} cursor="pointer" />
          ))}
          <IconButton aria-label="بنر بعدی" size="2xs" variant="ghost" color="white" onClick={() => step(1)}><ChevronLeftIcon /></IconButton>
        </HStack>
      )}
    </Box>
  )
}

/**
 * The panel's own shortcuts, shown while staff have chosen none: the pages a
 * customer opens most in the first week.
 */
export const DEFAULT_SHORTCUTS: Array<{ to: string; title: string; icon: typeof GridIcon }> = [
  { to: '/send-sms/quick', title: 'ارسال سریع', icon: SendIcon },
  { to: '/contacts', title: 'مخاطبین', icon: ContactsIcon },
  { to: '/wallet/credit', title: 'افزایش اعتبار', icon: WalletIcon },
  { to: '/reports', title: 'گزارش ارسال‌ها', icon: ChartIcon },
  { to: '/inbox', title: 'پیامک‌های دریافتی', icon: InboxIcon },
  { to: '/pattern', title: 'پیامک الگو (پترن)', icon: PatternIcon },
]

const tileStyle = { display: 'flex', alignItems: 'center', gap: '2', p: '3', rounded: 'lg', borderWidth: '1px', borderColor: 'app.border',
  fontSize: 'sm', fontWeight: 'medium', color: 'fg', _hover: { bg: 'app.raised', borderColor: 'brand.emphasized', textDecoration: 'none' } } as const

/** The panel's own shortcuts as tiles. */
function DefaultShortcuts() {
  return (
    <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2.5" data-testid="quick-access-defaults">
      {DEFAULT_SHORTCUTS.map((q) => (
        <Link asChild key={q.to} {...tileStyle}>
          <RouterLink to={q.to}>
            <q.icon boxSize="4" color="brand.fg" flexShrink={0} />
            <Text truncate>{q.title}</Text>
          </RouterLink>
        </Link>
      ))}
    </SimpleGrid>
  )
}

/** The quick-access links staff chose, as tiles; the panel's own shortcuts while there are none. */
export function QuickAccess() {
  const { data, isPending, isError, refetch } = useBoard()
  return (
    <SectionCard title="دسترسی سریع" data-testid="quick-access">
      {data && !data.quick_access.length ? (
        <DefaultShortcuts />
      ) : data?.quick_access.length ? (
        <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2.5">
          {data.quick_access.map((q) => (
            <ItemLink key={q.id} item={q} newTab display="flex" alignItems="center" gap="2" p="3" rounded="lg" borderWidth="1px"
              borderColor="app.border" fontSize="sm" fontWeight="medium" color="fg" _hover={{ bg: 'app.raised', borderColor: 'brand.emphasized' }}>
              <GridIcon boxSize="4" color="brand.fg" flexShrink={0} />
              <Text truncate>{fa(q.title)}</Text>
            </ItemLink>
          ))}
        </SimpleGrid>
      ) : (
        <ListState isPending={isPending} isError={isError} onRetry={() => refetch()} empty="میانبری تعریف نشده است" />
      )}
    </SectionCard>
  )
}
