/**
 * The USPS codes of the states, DC and the territories: the `state` parameter's values and what the
 * adviser and 13F loads accept as a US location. Apart from the parameter schemas (http/params.ts)
 * so that the loads do not import TypeBox.
 */
// biome-ignore format: the list reads best as a block
export const USPS_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK',
  'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC',
  'AS', 'GU', 'MP', 'PR', 'VI', 'UM', 'FM', 'MH', 'PW',
] as const;
