import { Box, Center, HStack, Stack, Tabs, Text } from '@chakra-ui/react'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { ChevronLeftIcon } from '../../components/outlineIcons'
import { parseTabIndex, TAB_PARAM } from '../../lib/tabs'
import { useIsMobile } from '../../lib/viewport'
import { SectionCard } from '../../components/SectionCard'
import { SECTIONS } from './sections'

/** /contacts: the five tabs on desktop (`?tab=` index), a menu of the five pages on mobile. */
export default function ContactsPage() {
  const isMobile = useIsMobile()
  return isMobile ? <MobileMenu /> : <DesktopTabs />
}

function DesktopTabs() {
  const [params, setParams] = useSearchParams()
  const index = parseTabIndex(params.get(TAB_PARAM), SECTIONS.length)
  // A new tab starts clean: its own page, size and filters.
  const choose = (next: number) => setParams(new URLSearchParams({ [TAB_PARAM]: String(next) }))
  const { Component } = SECTIONS[index]
  return (
    <SectionCard>
      <Tabs.Root
        value={String(index)}
        onValueChange={(e) => choose(Number(e.value))}
        colorPalette="brand"
        variant="line"
        lazyMount
        unmountOnExit
      >
        <Tabs.List mb="5" overflowX="auto" data-testid="contacts-tabs">
          {SECTIONS.map((s, i) => (
            <Tabs.Trigger key={s.key} value={String(i)} data-testid={`tab-${s.key}`} whiteSpace="nowrap">
              <s.icon boxSize="4" /> {s.title}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value={String(index)} pt="0">
          <Component />
        </Tabs.Content>
      </Tabs.Root>
    </SectionCard>
  )
}

function MobileMenu() {
  return (
    <Stack as="nav" aria-label="بخش‌های مخاطبین" gap="3" data-testid="contacts-menu">
      {SECTIONS.map((s) => (
        <Box
          key={s.key}
          asChild
          p="4"
          rounded="xl"
          borderWidth="1px"
          borderColor="app.border"
          bg="app.surface"
          _hover={{ borderColor: 'brand.emphasized' }}
        >
          <RouterLink to={s.path} data-testid={`menu-${s.key}`}>
            <HStack gap="3">
              <Center boxSize="10" rounded="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
                <s.icon boxSize="5" />
              </Center>
              <Stack gap="0" flex="1" minW="0">
                <Text fontWeight="bold">{s.title}</Text>
                <Text fontSize="sm" color="app.muted" truncate>{s.description}</Text>
              </Stack>
              <ChevronLeftIcon color="brand.fg" boxSize="5" />
            </HStack>
          </RouterLink>
        </Box>
      ))}
    </Stack>
  )
}
