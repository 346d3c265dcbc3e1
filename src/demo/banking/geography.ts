/**
 * Where demo institutions are: every state, DC and the inhabited territories, weighted roughly like
 * the real count of FDIC-insured institutions headquartered there, with a few real city names each.
 */

interface StateInfo {
  readonly code: string;
  /** Approximate number of FDIC-insured institutions headquartered there (2020s). */
  readonly weight: number;
  readonly cities: readonly string[];
}

// biome-ignore format: one state per line reads best
export const STATES: readonly StateInfo[] = [
  { code: 'AL', weight: 110, cities: ['Birmingham', 'Montgomery', 'Mobile', 'Huntsville', 'Dothan'] },
  { code: 'AK', weight: 6, cities: ['Anchorage', 'Fairbanks', 'Juneau'] },
  { code: 'AZ', weight: 15, cities: ['Phoenix', 'Tucson', 'Flagstaff', 'Scottsdale'] },
  { code: 'AR', weight: 100, cities: ['Little Rock', 'Fayetteville', 'Jonesboro', 'Conway', 'Searcy'] },
  { code: 'CA', weight: 140, cities: ['Los Angeles', 'San Francisco', 'San Diego', 'Fresno', 'Cañada Flintridge', 'San José'] },
  { code: 'CO', weight: 70, cities: ['Denver', 'Colorado Springs', 'Cañon City', 'Pueblo', 'Greeley'] },
  { code: 'CT', weight: 35, cities: ['Hartford', 'New Haven', 'Stamford', 'Norwich'] },
  { code: 'DE', weight: 20, cities: ['Wilmington', 'Dover', 'Newark'] },
  { code: 'DC', weight: 4, cities: ['Washington'] },
  { code: 'FL', weight: 100, cities: ['Miami', 'Tampa', 'Orlando', 'Jacksonville', 'Coral Gables'] },
  { code: 'GA', weight: 150, cities: ['Atlanta', 'Savannah', 'Macon', 'Athens', 'Valdosta'] },
  { code: 'HI', weight: 6, cities: ['Honolulu', 'Hilo', 'Līhuʻe'] },
  { code: 'ID', weight: 12, cities: ['Boise', 'Coeur d’Alene', 'Idaho Falls'] },
  { code: 'IL', weight: 380, cities: ['Chicago', 'Peoria', 'Springfield', 'Rockford', 'Champaign', 'Effingham'] },
  { code: 'IN', weight: 100, cities: ['Indianapolis', 'Fort Wayne', 'Evansville', 'South Bend'] },
  { code: 'IA', weight: 250, cities: ['Des Moines', 'Cedar Rapids', 'Davenport', 'Sioux City', 'Ames', 'Le Mars'] },
  { code: 'KS', weight: 200, cities: ['Wichita', 'Topeka', 'Overland Park', 'Salina', 'Dodge City'] },
  { code: 'KY', weight: 120, cities: ['Louisville', 'Lexington', 'Bowling Green', 'Paducah'] },
  { code: 'LA', weight: 120, cities: ['New Orleans', 'Baton Rouge', 'Lafayette', 'Shreveport', 'Thibodaux'] },
  { code: 'ME', weight: 25, cities: ['Portland', 'Bangor', 'Lewiston', 'Madawaska'] },
  { code: 'MD', weight: 40, cities: ['Baltimore', 'Annapolis', 'Frederick', 'Salisbury'] },
  { code: 'MA', weight: 110, cities: ['Boston', 'Worcester', 'Springfield', 'Lowell', 'Fall River'] },
  { code: 'MI', weight: 80, cities: ['Detroit', 'Grand Rapids', 'Lansing', 'Traverse City'] },
  { code: 'MN', weight: 240, cities: ['Minneapolis', 'Saint Paul', 'Duluth', 'Rochester', 'St. Cloud'] },
  { code: 'MS', weight: 70, cities: ['Jackson', 'Tupelo', 'Hattiesburg', 'Gulfport'] },
  { code: 'MO', weight: 240, cities: ['St. Louis', 'Kansas City', 'Springfield', 'Columbia', 'Joplin'] },
  { code: 'MT', weight: 45, cities: ['Billings', 'Missoula', 'Great Falls', 'Bozeman'] },
  { code: 'NE', weight: 150, cities: ['Omaha', 'Lincoln', 'Grand Island', 'Kearney'] },
  { code: 'NV', weight: 15, cities: ['Las Vegas', 'Reno', 'Carson City'] },
  { code: 'NH', weight: 20, cities: ['Manchester', 'Concord', 'Nashua'] },
  { code: 'NJ', weight: 60, cities: ['Newark', 'Jersey City', 'Trenton', 'Princeton'] },
  { code: 'NM', weight: 35, cities: ['Albuquerque', 'Santa Fe', 'Española', 'Las Cruces'] },
  { code: 'NY', weight: 120, cities: ['New York', 'Buffalo', 'Rochester', 'Albany', 'Syracuse'] },
  { code: 'NC', weight: 40, cities: ['Charlotte', 'Raleigh', 'Greensboro', 'Asheville'] },
  { code: 'ND', weight: 70, cities: ['Fargo', 'Bismarck', 'Grand Forks', 'Minot'] },
  { code: 'OH', weight: 170, cities: ['Columbus', 'Cleveland', 'Cincinnati', 'Toledo', 'Dayton'] },
  { code: 'OK', weight: 180, cities: ['Oklahoma City', 'Tulsa', 'Norman', 'Enid', 'Lawton'] },
  { code: 'OR', weight: 15, cities: ['Portland', 'Eugene', 'Salem'] },
  { code: 'PA', weight: 140, cities: ['Philadelphia', 'Pittsburgh', 'Harrisburg', 'Allentown', 'Erie'] },
  { code: 'RI', weight: 8, cities: ['Providence', 'Warwick', 'Woonsocket'] },
  { code: 'SC', weight: 40, cities: ['Columbia', 'Charleston', 'Greenville'] },
  { code: 'SD', weight: 60, cities: ['Sioux Falls', 'Rapid City', 'Aberdeen'] },
  { code: 'TN', weight: 140, cities: ['Nashville', 'Memphis', 'Knoxville', 'Chattanooga'] },
  { code: 'TX', weight: 380, cities: ['Houston', 'Dallas', 'San Antonio', 'Austin', 'El Paso', 'Lubbock', 'Laredo'] },
  { code: 'UT', weight: 40, cities: ['Salt Lake City', 'Provo', 'Ogden'] },
  { code: 'VT', weight: 12, cities: ['Burlington', 'Montpelier', 'Rutland'] },
  { code: 'VA', weight: 70, cities: ['Richmond', 'Norfolk', 'Roanoke', 'Charlottesville'] },
  { code: 'WA', weight: 40, cities: ['Seattle', 'Spokane', 'Tacoma', 'Yakima'] },
  { code: 'WV', weight: 55, cities: ['Charleston', 'Morgantown', 'Wheeling', 'Huntington'] },
  { code: 'WI', weight: 170, cities: ['Milwaukee', 'Madison', 'Green Bay', 'Eau Claire', 'Wausau'] },
  { code: 'WY', weight: 30, cities: ['Cheyenne', 'Casper', 'Laramie'] },
  { code: 'PR', weight: 3, cities: ['San Juan', 'Mayagüez', 'Ponce', 'Bayamón'] },
  { code: 'GU', weight: 2, cities: ['Hagåtña', 'Tamuning'] },
  { code: 'VI', weight: 1, cities: ['Charlotte Amalie', 'Christiansted'] },
  { code: 'AS', weight: 1, cities: ['Pago Pago'] },
  { code: 'MP', weight: 1, cities: ['Saipan'] },
];

export const STATE_CODES = STATES.map((s) => s.code);
export const STATE_WEIGHTS = STATES.map((s) => s.weight);
const BY_CODE = new Map(STATES.map((s) => [s.code, s]));

export function citiesOf(code: string): readonly string[] {
  return BY_CODE.get(code)?.cities ?? ['Springfield'];
}
