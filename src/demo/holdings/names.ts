/** Word lists for synthetic issuer, manager and adviser names and locations. */

// biome-ignore format: word lists read best as blocks
export const ISSUER_WORDS = [
  'Apex', 'Atlas', 'Beacon', 'Boreal', 'Cascade', 'Cedar', 'Cobalt', 'Crescent', 'Delta', 'Ember', 'Everest',
  'Falcon', 'Frontier', 'Garnet', 'Glacier', 'Granite', 'Harbor', 'Helix', 'Horizon', 'Iron', 'Juniper',
  'Keystone', 'Lumen', 'Magnolia', 'Meridian', 'Nova', 'Oak', 'Orion', 'Pacific', 'Pinnacle', 'Prairie',
  'Quantum', 'Redwood', 'Sable', 'Sierra', 'Solstice', 'Summit', 'Titan', 'Tundra', 'Unity', 'Vertex',
  'Vista', 'Willow', 'Zenith', 'Aurora', 'Bluewater', 'Copper', 'Dune', 'Echo', 'Fjord', 'Golden',
];
// biome-ignore format: word lists read best as blocks
export const ISSUER_INDUSTRIES = [
  'Therapeutics', 'Semiconductor', 'Energy', 'Financial', 'Bancorp', 'Software', 'Systems', 'Pharmaceuticals',
  'Industries', 'Materials', 'Networks', 'Retail', 'Foods', 'Realty', 'Logistics', 'Biosciences', 'Motors',
  'Airlines', 'Communications', 'Resources', 'Technologies', 'Health', 'Insurance', 'Utilities', 'Brands',
];
export const ISSUER_SUFFIXES = ['INC', 'CORP', 'CO', 'HOLDINGS INC', 'LTD', 'PLC', 'GROUP INC', 'N V', 'SA'];

// biome-ignore format: word lists read best as blocks
export const SURNAMES = [
  'Abbott', 'Baker', 'Carver', 'Dalton', 'Ellis', 'Fischer', 'Grant', 'Hale', 'Irving', 'Jensen', 'Keller',
  'Lang', 'Mercer', 'Nash', 'Osborne', 'Porter', 'Quinn', 'Reyes', 'Sato', 'Thorne', 'Underwood', 'Vance',
  'Whitman', 'Young', 'Zimmer', 'Brennan', 'Castillo', 'Dubois', 'Eriksen', 'Okafor', 'Novak', 'Moreau',
];
// biome-ignore format: word lists read best as blocks
export const FIRM_WORDS = [
  'Capital', 'Capital Management', 'Asset Management', 'Advisors', 'Partners', 'Investment Management',
  'Wealth Management', 'Investors', 'Global Investors', 'Fund Management', 'Securities', 'Trust Company',
];
export const FIRM_SUFFIXES = ['LLC', 'LP', 'Inc.', 'L.L.C.', 'Ltd', 'Corp', ''];

/** US business addresses, weighted towards financial centres by repetition. */
// biome-ignore format: a table reads best as a block
export const US_PLACES: readonly [string, string][] = [
  ['NEW YORK', 'NY'], ['NEW YORK', 'NY'], ['NEW YORK', 'NY'], ['NEW YORK', 'NY'], ['NEW YORK', 'NY'],
  ['BOSTON', 'MA'], ['BOSTON', 'MA'], ['GREENWICH', 'CT'], ['GREENWICH', 'CT'], ['SAN FRANCISCO', 'CA'],
  ['SAN FRANCISCO', 'CA'], ['LOS ANGELES', 'CA'], ['CHICAGO', 'IL'], ['CHICAGO', 'IL'], ['DALLAS', 'TX'],
  ['HOUSTON', 'TX'], ['AUSTIN', 'TX'], ['MIAMI', 'FL'], ['PALM BEACH', 'FL'], ['DENVER', 'CO'],
  ['SEATTLE', 'WA'], ['ATLANTA', 'GA'], ['CHARLOTTE', 'NC'], ['MINNEAPOLIS', 'MN'], ['PHILADELPHIA', 'PA'],
  ['PITTSBURGH', 'PA'], ['BALTIMORE', 'MD'], ['OMAHA', 'NE'], ['KANSAS CITY', 'MO'], ['ST. LOUIS', 'MO'],
  ['COLUMBUS', 'OH'], ['CLEVELAND', 'OH'], ['DETROIT', 'MI'], ['NASHVILLE', 'TN'], ['SALT LAKE CITY', 'UT'],
  ['PHOENIX', 'AZ'], ['PORTLAND', 'OR'], ['RICHMOND', 'VA'], ['WILMINGTON', 'DE'], ['MILWAUKEE', 'WI'],
  ['INDIANAPOLIS', 'IN'], ['LOUISVILLE', 'KY'], ['NEW ORLEANS', 'LA'], ['HONOLULU', 'HI'], ['BOISE', 'ID'],
  ['WASHINGTON', 'DC'], ['SAN JUAN', 'PR'], ['PRINCETON', 'NJ'], ['SHORT HILLS', 'NJ'], ['STAMFORD', 'CT'],
];

/** Non-US managers: [city, ISO country]. */
// biome-ignore format: a table reads best as a block
export const FOREIGN_PLACES: readonly [string, string][] = [
  ['LONDON', 'GB'], ['LONDON', 'GB'], ['TORONTO', 'CA'], ['ZURICH', 'CH'], ['GENEVA', 'CH'], ['TOKYO', 'JP'],
  ['HONG KONG', 'HK'], ['SINGAPORE', 'SG'], ['SYDNEY', 'AU'], ['PARIS', 'FR'], ['FRANKFURT', 'DE'],
  ['AMSTERDAM', 'NL'], ['STOCKHOLM', 'SE'], ['HAMILTON', 'BM'], ['GEORGE TOWN', 'KY'],
];

export function firmName(words: { surname: string; second: string; firm: string; suffix: string }): string {
  return [words.surname, words.second, words.firm, words.suffix].filter(Boolean).join(' ');
}
