import { describe, expect, it } from 'vitest'
import { detectContactInfo } from '../../lib/contact-detector'
import { classDescription, classSeeds } from './classes'
import { courseSeeds } from './courses'
import { organizationSeeds } from './people'

// The API refuses contact details in a class's title and description and in an organisation's name (422
// contact_info): the demo's own texts must pass the same rule, or editing them in the demo would be refused.
describe('the demo texts pass the contact rule', () => {
  const flagged = (texts: string[]) => texts.filter((t) => detectContactInfo(t).flagged)

  it('class titles and descriptions', () => {
    expect(flagged(classSeeds.flatMap((c) => [c.title, classDescription(c)]))).toEqual([])
    expect(flagged(courseSeeds.flatMap((c) => [c.title, c.description]))).toEqual([])
  })

  it('organisation names', () => {
    expect(flagged(organizationSeeds.map((o) => o.name))).toEqual([])
  })
})
