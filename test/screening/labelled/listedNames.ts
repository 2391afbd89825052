/**
 * Name parts for the test-made list entries. Given names are common ones; the family names were
 * made up for these tests (and checked against no list), so no entry is a real listed person.
 */
export const ARABIC_GIVEN = [
  'Abdulrahman',
  'Ahmad',
  'Mohammed',
  'Yusuf',
  'Khalid',
  'Omar',
  'Ibrahim',
  'Hamza',
  'Tariq',
  'Bilal',
  'Mustafa',
  'Hassan',
  'Hussein',
  'Jamal',
  'Nasser',
  'Faisal',
  'Saif',
  'Walid',
  'Zakariya',
  'Anwar',
];
export const ARABIC_FAMILY = [
  'Qatrawi',
  'Zubaydani',
  'Hilmani',
  'Barqouti',
  'Sahnawi',
  'Dirbasi',
  'Tallufi',
  'Maqrisi',
  'Jazouli',
  'Fardousi',
  'Kharnabi',
  'Shuwaymi',
  'Raddawi',
  'Nahlawi',
  'Zarqani',
];
export const RUSSIAN_GIVEN = [
  'Ivan',
  'Sergei',
  'Dmitri',
  'Alexei',
  'Nikolai',
  'Andrei',
  'Vladimir',
  'Yuri',
  'Mikhail',
  'Oleg',
  'Gennady',
  'Arkady',
];
export const RUSSIAN_PATRONYMIC = [
  'Ivanovich',
  'Sergeyevich',
  'Petrovich',
  'Nikolayevich',
  'Andreyevich',
  'Viktorovich',
  'Yuryevich',
];
export const RUSSIAN_FAMILY = [
  'Kravchenkov',
  'Tolbunov',
  'Zarechnyev',
  'Murashkin',
  'Volodarsky',
  'Belozerov',
  'Gritsayenko',
  'Lyubarsky',
  'Shestakovich',
  'Pronyakin',
  'Chernoyarov',
  'Khvostenko',
];
/** Rarer given-name characters, so that listed Chinese names are not the commonest ones. */
export const CHINESE_LISTED_GIVEN = [...'翊彧珩琮骁昶煜瑾珏暄璟奕霆骞砚濯聿晏弈桓'];
export const KOREAN_LISTED_SURNAMES = ['RI', 'KIM', 'PAK', 'CHOE', 'JO', 'HAN', 'O', 'KANG'];
export const KOREAN_LISTED_GIVEN = [
  'Kwang-Chol',
  'Song-Il',
  'Myong-Ho',
  'Chol-Jin',
  'Yong-Nam',
  'Il-Su',
  'Hyok-Chol',
  'Thae-Sop',
  'Chang-Gwon',
  'Ryong-Hae',
];
export const SPANISH_GIVEN = [
  'José',
  'María',
  'Juan',
  'Luis',
  'Ramón',
  'Andrés',
  'Jesús',
  'Ángel',
  'Héctor',
  'Raúl',
];
export const SPANISH_FAMILY = [
  'Olivares',
  'Cárdenas',
  'Ibáñez',
  'Muñoz',
  'Gutiérrez',
  'Peñaloza',
  'Quiñones',
  'Zúñiga',
  'Valdés',
  'Benítez',
];
export const EUROPEAN_GIVEN = [
  'Zoltán',
  'Mirosław',
  'Jiří',
  'Dušan',
  'Tomáš',
  'Ömer',
  'Çağan',
  'Søren',
  'Bjørn',
  'Hélène',
];
export const EUROPEAN_FAMILY = [
  'Kővárszky',
  'Wrześniakow',
  'Dvořánek',
  'Šimunović',
  'Özkaraman',
  'Bjørnhaug',
  'Lefébvrier',
  'Štěpánský',
];

/** Transliteration variants as they occur between lists, passports and forms. */
export const TRANSLITERATIONS: [RegExp, string][] = [
  [/Mohammed/, 'Muhammad'],
  [/Ahmad/, 'Ahmed'],
  [/Yusuf/, 'Youssef'],
  [/Omar/, 'Umar'],
  [/Hussein/, 'Husayn'],
  [/Hassan/, 'Hasan'],
  [/Khalid/, 'Khaled'],
  [/Zakariya/, 'Zakaria'],
  [/Abdulrahman/, 'Abdul Rahman'],
  [/Faisal/, 'Faysal'],
  [/ou/, 'u'],
  [/ei\b/, 'ey'],
  [/Yuri/, 'Iouri'],
  [/yev/, 'iev'],
  [/sky\b/, 'ski'],
  [/ov\b/, 'off'],
  [/Kh/, 'H'],
  [/ch/, 'tch'],
  [/Pak\b/, 'Park'],
  [/Choe\b/, 'Choi'],
  [/Ri\b/, 'Rhee'],
  [/y/, 'i'],
];

/*
 * The passport groups (issue 53): names as the lists write them in full (patronymic, father's and
 * grandfather's names, two given names and two surnames), against which applicants write fewer
 * parts and other transliterations. Given names are common ones; the family names were made up for
 * these tests (the Spanish and Portuguese ones are surnames, combined at random with no person in
 * mind), so no entry is a real listed person.
 */
/** Russian given names in Cyrillic, male and female, with the patronymics formed from them. */
export const RUSSIAN_GIVEN_CYRILLIC = {
  male: [
    'Алексей',
    'Андрей',
    'Юрий',
    'Сергей',
    'Дмитрий',
    'Евгений',
    'Николай',
    'Вячеслав',
    'Фёдор',
    'Пётр',
    'Аркадий',
    'Геннадий',
    'Василий',
    'Михаил',
  ],
  female: ['Юлия', 'Наталья', 'Татьяна', 'Ксения', 'Людмила', 'Евгения', 'Ольга'],
};
export const RUSSIAN_PATRONYMIC_CYRILLIC = [
  'Сергеевич',
  'Юрьевич',
  'Алексеевич',
  'Андреевич',
  'Николаевич',
  'Васильевич',
  'Михайлович',
  'Фёдорович',
  'Дмитриевич',
  'Анатольевич',
];
/** Made-up surnames in their masculine form (the feminine is formed from it). */
export const RUSSIAN_FAMILY_CYRILLIC = [
  'Кравцелов',
  'Тормашин',
  'Белозуров',
  'Звягинцов',
  'Пешкарёв',
  'Хворостин',
  'Щеглянов',
  'Жаровцев',
  'Юдашев',
  'Ярцевой',
  'Зябликов',
  'Ржевицкий',
  'Крутоярский',
  'Чернобаев',
  'Селюнин',
  'Лядовцев',
];
/** Central Asian and North Caucasian names as Russian-language passports of those countries write them. */
export const CENTRAL_ASIAN_GIVEN_CYRILLIC = {
  male: [
    'Ислам',
    'Рустам',
    'Тимур',
    'Бахтияр',
    'Шухрат',
    'Джамшид',
    'Нурлан',
    'Ерлан',
    'Азамат',
    'Ильхом',
    'Улугбек',
    'Алишер',
    'Магомед',
    'Ибрагим',
    'Зелимхан',
    'Асланбек',
  ],
  female: ['Гульнара', 'Дильноза', 'Айгуль', 'Зарина', 'Мадина'],
};
export const CENTRAL_ASIAN_PATRONYMIC_CYRILLIC = [
  'Рустамович',
  'Тимурович',
  'Бахтиярович',
  'Магомедович',
  'Ибрагимович',
  'Нурланович',
  'Исламович',
  'Ахмедович',
];
export const CENTRAL_ASIAN_FAMILY_CYRILLIC = [
  'Атабкулов',
  'Таштемиров',
  'Бекмурзаев',
  'Курбантаев',
  'Эльмурзиев',
  'Сатыбалдиев',
  'Рахимбердиев',
  'Жумабеков',
  'Хайдаркулов',
  'Нурмаханов',
  'Гаджимурзаев',
  'Тошпулатбеков',
];
/** Made-up Arabic family names for the passport group. */
export const ARABIC_FAMILY_PASSPORT = [
  'Qarnawi',
  'Sudayrani',
  'Hamdaqi',
  'Tarbushi',
  'Khazalani',
  'Dahmushi',
  'Marzuqani',
  'Bashtawi',
  'Fadlawi',
  'Ruqayshi',
  'Subhawi',
  'Jaddousi',
];
/**
 * Arabic given names as the lists write them, each with spellings passports and forms use for the
 * same name: English and French transliterations, Persian (Ebrahim), Russian (Ibragim), Maghrebi
 * (Brahim, Djamel), Egyptian (Gamal) and Malaysian (Mohd) ones.
 */
export const ARABIC_GIVEN_SPELLINGS: Record<string, readonly string[]> = {
  Mohammed: ['Muhammad', 'Mohamed', 'Mohammad', 'Mohamad', 'Muhammed', 'Mohd', 'Mukhammad'],
  Ibrahim: ['Ebrahim', 'Ibragim', 'Brahim', 'Ibraheem', 'Ibrahem'],
  Yusuf: ['Youssef', 'Yousef', 'Yousif', 'Yusif', 'Jusuf'],
  Hussein: ['Husayn', 'Hussain', 'Hossein', 'Husein', 'Houssein'],
  Omar: ['Umar', 'Omer', 'Oumar'],
  Khalid: ['Khaled', 'Halid'],
  Ahmad: ['Ahmed', 'Akhmed', 'Ahmet'],
  Mustafa: ['Mostafa', 'Moustafa', 'Mustapha'],
  Hassan: ['Hasan', 'Hacen'],
  Jamal: ['Gamal', 'Djamel', 'Jamaal'],
  Faisal: ['Faysal', 'Feisal'],
  Abdulrahman: ['Abdul Rahman', 'Abdelrahman', 'Abdurrahman', 'Abd al-Rahman', 'Abderrahmane'],
  Tariq: ['Tarek', 'Tarik', 'Tareq'],
  Walid: ['Waleed', 'Oualid'],
  Zakariya: ['Zakaria', 'Zakariyya', 'Zakariah'],
  Hamza: ['Hamzah', 'Hamzeh'],
  Nasser: ['Nasir', 'Naser'],
  Abdullah: ['Abdallah', 'Abdulla', 'Abdellah'],
  Yahya: ['Yehia', 'Yahia'],
  Ali: ['Aly'],
};
/** Spanish and Portuguese compound given names and surnames for the double-surname group. */
export const SPANISH_COMPOUND_GIVEN = [
  'José Luis',
  'Juan Carlos',
  'José Antonio',
  'María José',
  'Ana María',
  'Luis Alberto',
  'Jorge Luis',
  'Miguel Ángel',
  'Francisco Javier',
  'María Fernanda',
];
export const SPANISH_FAMILY_PASSPORT = [
  'Arrieta',
  'Cifuentes',
  'Echeverría',
  'Galarza',
  'Irigoyen',
  'Larrañaga',
  'Montalvo',
  'Saavedra',
  'Urdaneta',
  'Villalobos',
  'Zambrano',
  'Betancur',
];
export const PORTUGUESE_COMPOUND_GIVEN = [
  'João Carlos',
  'José Manuel',
  'Maria João',
  'Ana Paula',
  'Luís Filipe',
  'Carlos Eduardo',
  'Paulo Sérgio',
  'Antônio Carlos',
  'Rui Miguel',
  'Maria Luísa',
];
export const PORTUGUESE_FAMILY_PASSPORT = [
  'Magalhães',
  'Vasconcelos',
  'Figueiredo',
  'Quaresma',
  'Meirelles',
  'Brandão',
  'Guimarães',
  'Sampaio',
  'Bettencourt',
  'Albuquerque',
  'Castanheira',
  'Valadares',
];
/** Given names of one character for short Chinese entries (common ones: namesakes exist). */
export const CHINESE_SHORT_GIVEN = [...'明伟军勇杰涛斌强磊峰刚超'];
/** Myanmar names of two short parts, as the lists write them (test-made). */
export const MYANMAR_SHORT = [
  'Lin MYAT',
  'Li MAUNG',
  'Min TUN',
  'Zaw LIN',
  'Han TUN',
  'Ko LIN',
  'Ye MIN',
  'Aung MYO',
  'Wai LIN',
  'Tun MYINT',
];
