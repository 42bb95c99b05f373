import { useLocation } from 'react-router'
import { SectionForm } from './SectionForm'
import type { Section } from './api'

const BY_PATH: Record<string, Section> = { 'personal-info': 'personal', 'contact-info': 'contact', 'address-info': 'address' }

/** /profile/personal-info, contact-info and address-info: one section's form each. */
export default function SectionPage() {
  const last = useLocation().pathname.split('/').filter(Boolean).pop() ?? ''
  return <SectionForm key={last} section={BY_PATH[last] ?? 'personal'} />
}
