/**
 * An organisation's kind as every screen names it: 団体 is the word for both kinds (「団体（法人・グループ）」),
 * so a group must not be labelled 団体 on one page and グループ on another. Not in lib/format.ts: that file is in
 * the first load of every class page, which does not show the kind (its JavaScript budget, docs/decisions/0008).
 */
export const organizationKindLabels = { corporation: '法人', group: 'グループ' } as const
