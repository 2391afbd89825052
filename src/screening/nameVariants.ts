/**
 * Spellings of one given name that the folding rules of foldToken do not bring together, as the
 * lists, passports and forms write them: English, French, Persian, Russian, Maghrebi, Egyptian
 * and Malaysian transliterations of Arabic names (Ibrahim, Ebrahim, Ibragim, Brahim; Mohammed,
 * Muhammad, Mohd, Magomed), and Russian names whose spellings differ by more than the rules'
 * letters (Yevgeny, Evgeniy). Each group is one name, written first as its key; a spelling
 * belongs to one group. A table rather than a phonetic key: the variants are few and known, a
 * key (Soundex, Double Metaphone) that joined Ibrahim and Ebrahim would join far more names that
 * are not one, and a reviewer can read why two spellings matched.
 */
const GROUPS: readonly (readonly string[])[] = [
  // Arabic
  [
    'muhammad',
    'mohammed',
    'mohammad',
    'mohamed',
    'mohamad',
    'muhammed',
    'muhamed',
    'muhamad',
    'mohd',
    'muhd',
    'mukhammad',
    'mukhamed',
    'magomed',
    'mohamud',
  ],
  ['ibrahim', 'ebrahim', 'ibragim', 'brahim', 'ibraheem', 'ibrahem', 'ebrahem', 'ibrohim'],
  ['yusuf', 'youssef', 'yousef', 'yousif', 'yusif', 'jusuf', 'yussuf', 'yousuf', 'youcef', 'yusef'],
  ['husayn', 'hussein', 'hussain', 'hossein', 'husein', 'houssein', 'hossain', 'husain', 'huseyn', 'gusein'],
  ['umar', 'omar', 'omer', 'oumar'],
  ['khalid', 'khaled', 'halid', 'haled'],
  ['ahmad', 'ahmed', 'akhmed', 'ahmet', 'achmed'],
  ['mustafa', 'mostafa', 'moustafa', 'mustapha', 'mostapha', 'moustapha'],
  ['hasan', 'hassan', 'hacen', 'hassane', 'gasan'],
  ['jamal', 'gamal', 'djamel', 'jamaal', 'jamel', 'dzhamal'],
  ['faisal', 'faysal', 'feisal', 'fayssal', 'faycal'],
  ['tariq', 'tarek', 'tarik', 'tareq'],
  ['walid', 'waleed', 'oualid', 'walead'],
  ['zakariya', 'zakaria', 'zakariyya', 'zakariah', 'zakariyah', 'zacharia'],
  ['hamza', 'hamzah', 'hamzeh'],
  ['nasser', 'nasir', 'naser', 'nacer', 'nassir'],
  ['abdullah', 'abdallah', 'abdulla', 'abdalla', 'abdellah'],
  ['yahya', 'yehia', 'yahia', 'yihya'],
  ['ali', 'aly'],
  ['usama', 'osama', 'ussama', 'oussama'],
  ['mahmud', 'mahmoud', 'mahmood', 'makhmud'],
  ['sulayman', 'suleiman', 'sulaiman', 'soliman', 'suleyman', 'sulejman'],
  ['yasir', 'yasser', 'yaser'],
  ['ismail', 'ismael', 'esmail', 'ismoil'],
  ['said', 'saeed', 'saied'],
  // Russian
  ['yevgeny', 'evgeny', 'evgeniy', 'yevgeniy', 'evgenii', 'yevgeni', 'evgeni', 'jevgenij', 'evgenij'],
  ['yevgeniya', 'evgeniya', 'evgeniia', 'yevgenia', 'evgenia'],
  ['aleksandr', 'alexander', 'aleksander', 'alexandr'],
  ['pyotr', 'petr', 'piotr'],
  ['fyodor', 'fedor', 'feodor', 'fiodor'],
  ['kseniya', 'ksenia', 'kseniia', 'xenia'],
];

const KEY = new Map<string, string>();
for (const group of GROUPS) for (const spelling of group) KEY.set(spelling, group[0]!);

/** The key of a spelling the table knows (`ebrahim` `ibrahim`), else undefined. */
export function canonicalSpelling(token: string): string | undefined {
  return KEY.get(token);
}
