import { OK, population } from './population.ts';

/**
 * Calling codes written without their plus (issue 25). PRODUCT.md, "Phones": `mob_no_of` is a
 * calling code with `+` (the spec); `consignee_mob_no_of` a calling code with or without it;
 * `office_tel_no_of` a calling code with or without it, or a mainland area code, whichever reading
 * makes a valid number. Calling codes from ITU-T E.164 (List of ITU-T Recommendation E.164 assigned
 * country codes); mainland area codes from the MIIT's numbering plan (0755 Shenzhen, 020 Guangzhou,
 * 0855 黔东南 Kaili); validity from libphonenumber's metadata.
 */
const office = population('office-calling-code');
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
const { add } = office;
add('mainland', 'a Shenzhen office, calling code typed 86', { office_tel_no: '755 2600 0000', office_tel_no_of: '86' }, OK, 'PRODUCT Phones: 86 without the +');
add('mainland', 'the same office with the trunk 0 kept', { office_tel_no: '0755-26000000', office_tel_no_of: '86' }, OK, 'PRODUCT Phones; E.164 national prefix 0');
add('mainland', 'calling code after the international prefix 00', { office_tel_no: '75526000000', office_tel_no_of: '0086' }, OK, 'ITU-T E.164: 00 is the international call prefix of China');
add('hongkong', 'an office in Central, calling code typed 852', { office_tel_no: '2123 4567', office_tel_no_of: '852' }, OK, 'PRODUCT Phones: 852 without the +; E.164 852 Hong Kong');
add('hongkong', 'an office in Kwun Tong, 852 in brackets', { office_tel_no: '3188 0000', office_tel_no_of: '(852)' }, OK, 'PRODUCT Phones: parentheses read past');
add('macao', 'an office on Avenida de Almeida Ribeiro, 853', { office_tel_no: '2878 1234', office_tel_no_of: '853' }, OK, 'E.164 853 Macao');
add('taiwan', 'an office in Taipei, 886', { office_tel_no: '2 2345 6789', office_tel_no_of: '886' }, OK, 'E.164 886 Taiwan');
add('abroad', 'a New York head office, calling code 1', { office_tel_no: '212 555 0100', office_tel_no_of: '1' }, OK, 'E.164 1 North America');
add('abroad', 'a London office, calling code 44', { office_tel_no: '20 7946 0000', office_tel_no_of: '44' }, OK, 'E.164 44 United Kingdom');
add('mainland', 'a Guangzhou office, area code typed 20', { office_tel_no: '8888 6666', office_tel_no_of: '20' }, OK, 'PRODUCT Phones: whichever reading makes a valid number (020 Guangzhou, not Egypt)');
add('abroad', 'a Phnom Penh office, 855 (also 黔东南 0855)', { office_tel_no: '23 212 345', office_tel_no_of: '855' }, OK, 'E.164 855 Cambodia; PRODUCT Phones: whichever reading');
add('mainland', 'a Kaili office, 855 without its 0', { office_tel_no: '381 2345', office_tel_no_of: '855' }, OK, 'MIIT area code 0855; PRODUCT Phones: whichever reading');
add('hongkong', '852 with a number valid under neither reading', { office_tel_no: '123 45', office_tel_no_of: '852' }, [['office_tel_no', 'phoneNoAreaReading']], 'PRODUCT Phones: a clear message when neither reading makes a number');
add('mainland', '86 with a number too short', { office_tel_no: '123 45', office_tel_no_of: '86' }, [['office_tel_no', 'phoneInvalid']], 'China numbering plan');
add('hongkong', 'the mobile calling code typed 852 (still refused)', { mob_no_of: '852' }, [['mob_no_of', 'areaCodePlusMissing']], 'spec: mob_no_of written with +; PRODUCT Phones');
add('mainland', 'the mobile calling code typed 0086 (still refused)', { mob_no_of: '0086' }, [['mob_no_of', 'areaCodePlusMissing']], 'spec: mob_no_of written with +');
}

const consignee = population('consignee-calling-code');
// prettier-ignore
{
const { add } = consignee;
add('mainland', 'delivery to Shenzhen, calling code typed 86', { consignee_mob_no_of: '86' }, OK, 'PRODUCT Phones: consignee_mob_no_of with or without +');
add('mainland', 'calling code typed 0086', { consignee_mob_no_of: '0086' }, OK, 'ITU-T E.164: 00 international prefix');
add('hongkong', 'delivery in Mong Kok, 852', { consignee_mob_no_of: '852' }, OK, 'PRODUCT Phones; E.164 852');
add('macao', 'delivery in Taipa, 853', { consignee_mob_no_of: '853' }, OK, 'E.164 853');
add('taiwan', 'delivery in Taipei, 886', { consignee_mob_no_of: '886' }, OK, 'E.164 886');
add('abroad', 'delivery in New Jersey, 1', { consignee_mob_no_of: '1', consignee_mob_no: '(201) 555-0123' }, OK, 'E.164 1');
add('mainland', 'delivery to a relative in Singapore, 65', { consignee: '张芳', consignee_address: '10 Anson Road, #12-01, Singapore 079903', consignee_mob_no: '8123 4567', consignee_mob_no_of: '65' }, OK, 'E.164 65; PRODUCT Addresses: free text abroad');
add('mainland', 'a domestic area code as the consignee calling code', { consignee_mob_no: '2600 0000', consignee_mob_no_of: '0755' }, [['consignee_mob_no_of', 'callingCodeUnknown']], 'PRODUCT Phones: a calling code (area codes are for the office only)');
add('mainland', 'a calling code that is none', { consignee_mob_no_of: '999' }, [['consignee_mob_no_of', 'callingCodeUnknown']], 'ITU-T E.164: 999 is unassigned');
add('mainland', '86 with a number too short', { consignee_mob_no_of: '86', consignee_mob_no: '12345' }, [['consignee_mob_no', 'phoneInvalid']], 'China numbering plan');
}

export const PHONE_CASES = [...office.cases, ...consignee.cases];
