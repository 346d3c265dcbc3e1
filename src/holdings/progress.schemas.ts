/** Schema of a quarter's 13F filing season (SPEC §6). */
import { Type } from 'typebox';
import { count, quarterField, quarterParam, thousands } from './params.js';

export const ProgressQuery = Type.Object({ quarter: Type.Optional(quarterParam) });

export const ProgressSchema = Type.Object({
  quarter: quarterField,
  deadline: Type.String({
    description:
      'The filing deadline, 45 days after the quarter’s end (YYYY-MM-DD; SEC moves a weekend or holiday deadline to the next business day, which is not modelled)',
  }),
  previous_quarter: Type.Union([Type.String(), Type.Null()], {
    description: 'The loaded quarter before this one; null for the first',
  }),
  previous_filers: count('Managers with a 13F-HR for the previous quarter'),
  filed: Type.Object({
    managers: count('Managers with a 13F-HR for this quarter'),
    share_of_previous_filers: Type.Number({
      description:
        'Percent of the previous quarter’s filers that have filed for this quarter (12.5 means 12.5 %); 0 when there is no previous quarter',
    }),
    total_value: thousands('Sum of their portfolio values'),
  }),
  late: count('Managers whose first 13F-HR for the quarter was filed after the deadline'),
  not_yet: count('Previous quarter’s filers with no 13F-HR for this quarter yet'),
  by_day: Type.Array(
    Type.Object({
      date: Type.String({ description: 'Filing date, YYYY-MM-DD' }),
      managers: count('Managers whose first 13F-HR for the quarter was filed that day'),
      cumulative: count('Managers filed up to and including that day'),
    }),
    { description: 'Ascending by date' },
  ),
});
