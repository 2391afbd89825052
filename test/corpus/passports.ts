import { OK, population } from './population.ts';

/**
 * Foreign passports (issue 25), judged by the issuing country (`country`, `cert_type` `02`): the
 * forms of the countries whose citizens most often live in the mainland, Hong Kong and Macao, from
 * ICAO Doc 9303 part 4 (the MRZ document number: at most 9 letters and digits) and the issuers'
 * notices listed in docs/VALIDATION.md ("Passports"). Numbers are real-looking, not real: the
 * issuers' specimen numbers where they publish one (Germany C01X00T47, France 18AB12345).
 * Nepal and Sri Lanka have forms too, but are not in the default country table (unit-tested only).
 */
const { add, cases } = population('foreign-passport');
const A = 'abroad' as const;
/** An applicant of `country` on a passport numbered `cert_id`, otherwise John Smith's application. */
const on = (country: string, cert_id: string, name: string) => ({
  country,
  cert_type: '02' as const,
  cert_id,
  name,
  name_en: name,
  consignee: name,
});
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(A, 'a Korean engineer in Shanghai, PM passport', on('KR', 'M12345678', 'Kim Minjun'), OK, 'MOFA Korea: M and 8 digits (to 2021)');
add(A, 'a Korean on the 2021 next-generation passport', on('KR', 'M123A4567', 'Lee Seoyeon'), OK, 'MOFA Korea notice 2021-12: letter, 3 digits, letter, 4 digits');
add(A, 'a Korean number one digit short', on('KR', 'M1234567', 'Kim Minjun'), [['cert_id', 'passportFormat']], 'MOFA Korea: 9 characters');
add(A, 'an American, passport of 9 digits', on('US', '531234567', 'John Smith'), OK, 'US Department of State: 9 digits');
add(A, 'an American on the Next Generation passport', on('US', 'A12345678', 'Emily Johnson'), OK, 'US Department of State notice 2021: a letter and 8 digits');
add(A, 'an American number one digit short', on('US', '53123456', 'John Smith'), [['cert_id', 'passportFormat']], 'US Department of State: 9 characters');
add(A, 'a Japanese trader in Dalian', on('JP', 'TK1234567', 'Yamada Taro'), OK, 'MOFA Japan; ICAO 9303 specimen: 2 letters and 7 digits');
add(A, 'a Japanese number one digit short', on('JP', 'TK123456', 'Yamada Taro'), [['cert_id', 'passportFormat']], 'MOFA Japan: 9 characters');
add(A, 'a Filipino domestic worker in Hong Kong, 2016 e-passport', on('PH', 'P1234567A', 'Maria Santos'), OK, 'DFA Philippines: P, 7 digits and a letter');
add(A, 'a Filipino on the older e-passport', on('PH', 'EB1234567', 'Jose Reyes'), OK, 'DFA Philippines: 2 letters and 7 digits');
add(A, 'an Indonesian domestic worker in Hong Kong', on('ID', 'B1234567', 'Siti Aminah'), OK, 'Directorate General of Immigration (Indonesia): a letter and 7 digits');
add(A, 'an Indian IT consultant in Shenzhen', on('IN', 'J8369854', 'Rahul Sharma'), OK, 'Passport Seva (MEA): a letter and 7 digits');
add(A, 'an Indian number one digit short', on('IN', 'J836985', 'Rahul Sharma'), [['cert_id', 'passportFormat']], 'Passport Seva: 8 characters');
add(A, 'a Vietnamese student in Nanning', on('VN', 'C1234567', 'Nguyen Van An'), OK, 'Vietnam Immigration Department: a letter and 7 digits');
add(A, 'a Thai employee in Kunming', on('TH', 'AA1234567', 'Somchai Prasert'), OK, 'Ministry of Foreign Affairs of Thailand: 2 letters and 7 digits');
add(A, 'a Malaysian in Guangzhou', on('MY', 'A12345678', 'Tan Wei Ming'), OK, 'Imigresen Malaysia: A, H or K and 8 digits');
add(A, 'a Malaysian number with another letter', on('MY', 'B12345678', 'Tan Wei Ming'), [['cert_id', 'passportFormat']], 'Imigresen Malaysia: A, H or K');
add(A, 'a Singaporean in Suzhou', on('SG', 'E1234567A', 'Lim Jun Jie'), OK, 'ICA Singapore: letter, 7 digits, letter');
add(A, 'a Singapore number without its last letter', on('SG', 'E1234567', 'Lim Jun Jie'), [['cert_id', 'passportFormat']], 'ICA Singapore: 9 characters');
add(A, 'a British banker in Hong Kong', on('GB', '123456789', 'James Wilson'), OK, 'HM Passport Office: 9 digits');
add(A, 'a British number with letters', on('GB', 'AB1234567', 'James Wilson'), [['cert_id', 'passportFormat']], 'HM Passport Office: 9 digits');
add(A, 'a Canadian teacher in Beijing', on('CA', 'GA123456', 'Olivia Tremblay'), OK, 'IRCC: 2 letters and 6 digits');
add(A, 'an Australian in Macao', on('AU', 'PA1234567', 'Jack Taylor'), OK, 'DFAT: one or two letters and 7 digits');
add(A, 'a German engineer in Shenyang (specimen number)', on('DE', 'C01X00T47', 'Lukas Müller'), OK, 'BMI specimen passport: 9 characters of C F G H J K L M N P R T V W X Y Z and digits');
add(A, 'a German number with a letter Germany never uses', on('DE', 'C01X00TA7', 'Lukas Müller'), [['cert_id', 'passportFormat']], 'PassV: the letters A, B, D, E, I, O, Q, S, U are not used');
add(A, 'a French chef in Shanghai (specimen number)', on('FR', '18AB12345', 'Camille Martin'), OK, 'ANTS: 2 digits, 2 letters, 5 digits');
add(A, 'a French number one digit short', on('FR', '18AB1234', 'Camille Martin'), [['cert_id', 'passportFormat']], 'ANTS: 9 characters');
add(A, 'a Russian in Harbin', on('RU', '751234567', 'Ivan Petrov'), OK, 'MVD Russia: 2-digit series and 7-digit number');
add(A, 'a Pakistani trader in Urumqi', on('PK', 'AB1234567', 'Muhammad Ali'), OK, 'DGIP Pakistan: 2 letters and 7 digits');
add(A, 'a Myanmar national in Ruili', on('MM', 'MA123456', 'Aung Kyaw'), OK, 'Ministry of Foreign Affairs of Myanmar: letters and 6 digits');
add(A, 'a New Zealander in Hong Kong', on('NZ', 'LA123456', 'Liam Smith'), OK, 'DIA New Zealand: 2 letters and 6 digits');
add(A, 'an Italian designer in Shanghai', on('IT', 'YA1234567', 'Marco Rossi'), OK, 'Polizia di Stato: 2 letters and 7 digits');
add(A, 'a Spaniard in Macao', on('ES', 'PAA123456', 'Javier García'), OK, 'Policía Nacional: 3 letters and 6 digits');
add(A, 'a Brazilian in Shenzhen', on('BR', 'FZ123456', 'Lucas Silva'), OK, 'Polícia Federal: 2 letters and 6 digits');
add(A, 'a Mexican in Guangzhou', on('MX', 'G12345678', 'Sofía Hernández'), OK, 'SRE Mexico: a letter and 8 digits');
add(A, 'a Mongolian student in Hohhot', on('MN', 'E1234567', 'Bat-Erdene Bold'), OK, 'Mongolia: a letter and 7 digits');
add(A, 'a Kazakh trader in Horgos', on('KZ', 'N12345678', 'Nursultan Abenov'), OK, 'Ministry of Internal Affairs of Kazakhstan: N and 8 digits');
add(A, 'a Bangladeshi student in Kunming', on('BD', 'BA1234567', 'Rahim Uddin'), OK, 'DIP Bangladesh: 2 letters and 7 digits');
add(A, 'a Dutch engineer in Xiamen', on('NL', 'NW92J1PK9', 'Daan de Vries'), OK, 'Rijksoverheid: 2 letters, 6 letters or digits, 1 digit');
add(A, 'a Dutch number with the letter O', on('NL', 'NO92J1PK9', 'Daan de Vries'), [['cert_id', 'passportFormat']], 'Rijksoverheid: the letter O is not used');
add(A, 'a South African in Hong Kong', on('ZA', 'A12345678', 'Thabo Nkosi'), OK, 'DHA South Africa: a letter and 8 digits');
add(A, 'an Emirati: no form of its own, ICAO set and length', on('AE', 'AB1234567', 'Ahmed Al Mansoori'), OK, 'ICAO 9303 part 4: at most 9 letters and digits');
add(A, 'an Emirati number of 10 characters', on('AE', 'AB12345678', 'Ahmed Al Mansoori'), [['cert_id', 'passportFormat']], 'ICAO 9303 part 4: at most 9 characters in the document number field');
add(A, 'a Cambodian with a hyphen in the number', on('KH', 'N-1234567', 'Sok Dara'), [['cert_id', 'passportFormat']], 'ICAO 9303: letters and digits only');
}

export const PASSPORT_CASES = cases;
