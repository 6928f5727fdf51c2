import { attrs, esc } from '../../pages/html.ts';
import type { MerchantRecord } from '../../domain/merchants/records.ts';

export type MerchantFormValues = Partial<Record<'name' | 'email' | 'iconUrl' | 'collect' | 'collectCurrency' | 'collectMinor', string>>;

/** A form's problems (the domain's or the schema's messages), read out when the page loads. */
export const problemList = (problems?: string[]) =>
  problems?.length ? `<div class="error" role="alert"><ul>${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></div>` : '';

/** The values a merchant's form starts with. */
export function valuesOf(m: MerchantRecord): MerchantFormValues {
  const min = m.dataCollection?.minAmount;
  return {
    name: m.name,
    email: m.email ?? '',
    iconUrl: m.iconUrl ?? '',
    collect: !m.dataCollection ? 'off' : min ? 'min' : 'all',
    collectCurrency: min ? min.unit.replace(/^iso4217\//, '') : '',
    collectMinor: min?.value ?? '',
  };
}

/** Name, email, logo and the data-collection setting; `p` keeps ids unique per form. */
export function merchantFields(p: string, v: MerchantFormValues): string {
  const mode = v.collect || 'off';
  const opt = (value: string, label: string) => `<option${attrs({ value })}${value === mode ? ' selected' : ''}>${esc(label)}</option>`;
  return `<label${attrs({ for: `${p}-name` })}>Name</label>
<input${attrs({ id: `${p}-name`, name: 'name', value: v.name })} required maxlength="256">
<label${attrs({ for: `${p}-email` })}>Email</label>
<input${attrs({ id: `${p}-email`, name: 'email', value: v.email })} type="email" required maxlength="254">
<label${attrs({ for: `${p}-icon` })}>Logo URL <span class="muted">(HTTPS, square; optional)</span></label>
<input${attrs({ id: `${p}-icon`, name: 'iconUrl', value: v.iconUrl })} type="url" maxlength="2048" placeholder="https://…">
<label${attrs({ for: `${p}-collect` })}>Ask buyers for their details</label>
<select${attrs({ id: `${p}-collect`, name: 'collect' })}>${opt('off', 'Never')}${opt('all', 'On every payment')}${opt('min', 'From a minimum amount')}</select>
<label${attrs({ for: `${p}-cur` })}>Minimum: currency <span class="muted">(e.g. USD)</span></label>
<input${attrs({ id: `${p}-cur`, name: 'collectCurrency', value: v.collectCurrency })} maxlength="3">
<label${attrs({ for: `${p}-min` })}>Minimum: amount in minor units <span class="muted">(5000 = 50.00)</span></label>
<input${attrs({ id: `${p}-min`, name: 'collectMinor', value: v.collectMinor })} inputmode="numeric" maxlength="30">`;
}
