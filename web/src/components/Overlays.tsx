import { Box, CloseButton, Dialog, Drawer as ChakraDrawer, Portal } from '@chakra-ui/react'
import { useRef, type ReactNode } from 'react'
import { useIsMobile } from './hooks'
import { PopupContainerContext } from './Popup'

interface OverlayProps {
  open: boolean
  onClose: () => void
  title?: ReactNode
  children: ReactNode
  /** Buttons at the bottom. */
  footer?: ReactNode
  /** Accessible name when there is no visible title. */
  'aria-label'?: string
  /** Keeps the overlay open on outside clicks (e.g. forms with unsaved input). */
  closeOnInteractOutside?: boolean
}

export interface ModalProps extends OverlayProps {
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'full'
}

/** A centred dialog with title, body and footer; Escape and the close button close it. */
export function Modal({ open, onClose, title, children, footer, size = 'md', closeOnInteractOutside = true, ...rest }: ModalProps) {
  const contentRef = useRef<HTMLDivElement>(null)
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => !e.open && onClose()}
      size={size}
      placement="center"
      lazyMount
      unmountOnExit
      closeOnInteractOutside={closeOnInteractOutside}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="3">
          <Dialog.Content ref={contentRef} position="relative" aria-label={rest['aria-label']}>
            <PopupContainerContext.Provider value={contentRef}>
              {title && (
                <Dialog.Header>
                  <Dialog.Title fontSize="md">{title}</Dialog.Title>
                </Dialog.Header>
              )}
              <Dialog.Body pt={title ? undefined : '10'}>{children}</Dialog.Body>
              {footer && <Dialog.Footer gap="2">{footer}</Dialog.Footer>}
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="بستن" />
              </Dialog.CloseTrigger>
            </PopupContainerContext.Provider>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** A bottom sheet: slides up from the bottom edge, rounded top, at most 85% of the height. */
export function Drawer({ open, onClose, title, children, footer, closeOnInteractOutside = true, ...rest }: OverlayProps) {
  const contentRef = useRef<HTMLDivElement>(null)
  return (
    <ChakraDrawer.Root
      open={open}
      onOpenChange={(e) => !e.open && onClose()}
      placement="bottom"
      lazyMount
      unmountOnExit
      closeOnInteractOutside={closeOnInteractOutside}
    >
      <Portal>
        <ChakraDrawer.Backdrop />
        <ChakraDrawer.Positioner>
          <ChakraDrawer.Content ref={contentRef} position="relative" roundedTop="l3" maxH="85dvh" aria-label={rest['aria-label']}>
            <PopupContainerContext.Provider value={contentRef}>
              <Box aria-hidden mx="auto" mt="2" w="10" h="1" rounded="full" bg="border.emphasized" />
              {title && (
                <ChakraDrawer.Header>
                  <ChakraDrawer.Title fontSize="md">{title}</ChakraDrawer.Title>
                </ChakraDrawer.Header>
              )}
              <ChakraDrawer.Body overflowY="auto" pt={title ? undefined : '6'}>{children}</ChakraDrawer.Body>
              {footer && <ChakraDrawer.Footer gap="2">{footer}</ChakraDrawer.Footer>}
              <ChakraDrawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="بستن" />
              </ChakraDrawer.CloseTrigger>
            </PopupContainerContext.Provider>
          </ChakraDrawer.Content>
        </ChakraDrawer.Positioner>
      </Portal>
    </ChakraDrawer.Root>
  )
}

/** Side-modal widths in px (spec §2). */
export const SIDE_MODAL_WIDTHS = { sm: 320, md: 480, lg: 640, xl: 800 } as const

export interface SideModalProps extends OverlayProps {
  size?: keyof typeof SIDE_MODAL_WIDTHS
}

/** A panel sliding in from the inline end (the left edge in RTL); full width on mobile. */
export function SideModal({ open, onClose, title, children, footer, size = 'md', closeOnInteractOutside = true, ...rest }: SideModalProps) {
  const contentRef = useRef<HTMLDivElement>(null)
  const isMobile = useIsMobile()
  const width = `${SIDE_MODAL_WIDTHS[size]}px`
  return (
    <ChakraDrawer.Root
      open={open}
      onOpenChange={(e) => !e.open && onClose()}
      placement="end"
      lazyMount
      unmountOnExit
      closeOnInteractOutside={closeOnInteractOutside}
    >
      <Portal>
        <ChakraDrawer.Backdrop />
        <ChakraDrawer.Positioner>
          <ChakraDrawer.Content
            ref={contentRef}
            position="relative"
            w={isMobile ? '100vw' : width}
            maxW="100vw"
            data-size={size}
            aria-label={rest['aria-label']}
          >
            <PopupContainerContext.Provider value={contentRef}>
              {title && (
                <ChakraDrawer.Header borderBottomWidth="1px">
                  <ChakraDrawer.Title fontSize="md">{title}</ChakraDrawer.Title>
                </ChakraDrawer.Header>
              )}
              <ChakraDrawer.Body overflowY="auto" pt={title ? '4' : '10'}>{children}</ChakraDrawer.Body>
              {footer && <ChakraDrawer.Footer gap="2" borderTopWidth="1px">{footer}</ChakraDrawer.Footer>}
              <ChakraDrawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="بستن" />
              </ChakraDrawer.CloseTrigger>
            </PopupContainerContext.Provider>
          </ChakraDrawer.Content>
        </ChakraDrawer.Positioner>
      </Portal>
    </ChakraDrawer.Root>
  )
}
