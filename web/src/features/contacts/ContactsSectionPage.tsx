import { SectionCard } from '../../components/SectionCard'
import { sectionByKey, type SectionKey } from './sections'

/** One /contacts tab as a page of its own: the mobile-only routes (e.g. /contacts/all-groups). */
export default function ContactsSectionPage({ section }: { section: SectionKey }) {
  const { Component } = sectionByKey(section)
  return (
    <SectionCard p="3">
      <Component />
    </SectionCard>
  )
}
