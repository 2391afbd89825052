/**
 * Public name-frequency data, written out by hand for the screening test set (nothing here was
 * downloaded). Each list names its source; the ordinary applicants are combinations of these, so
 * they are as common as names get, and none is taken from a sanctions list.
 */

/**
 * The 100 most common Chinese surnames, in order: Ministry of Public Security, household
 * registration statistics (《二〇二〇年全国姓名报告》, which agrees with the 2010 census ranking
 * for the first hundred up to a few places).
 */
export const CHINESE_SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩邓冯曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严欧莫孔向常汤',
];

/**
 * Characters most used in given names (same report's most common given names: 伟, 芳, 娜, 秀英,
 * 敏, 静, 丽, 强, 磊, 军 ...; and the names most given to newborns in 2019-2020: 梓涵, 一诺,
 * 欣怡, 子涵, 浩宇, 宇轩 ...).
 */
export const CHINESE_GIVEN_CHARACTERS = [
  ...'伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超霞平刚桂华玉兰萍红建文辉力鹏飞斌宇浩凯欣怡婷雪琳晨宁俊博轩子涵梓一诺睿泽思雨嘉佳晓志海林云国东峰波亮成金春梅莉燕荣健龙永新庆德利清美',
];

/** Hong Kong's Cantonese romanisation (the Immigration Department's spelling) of common surnames. */
export const HONG_KONG_SURNAMES: Record<string, string> = {
  陈: 'CHAN',
  李: 'LEE',
  张: 'CHEUNG',
  黄: 'WONG',
  何: 'HO',
  林: 'LAM',
  梁: 'LEUNG',
  刘: 'LAU',
  吴: 'NG',
  王: 'WONG',
  郑: 'CHENG',
  杨: 'YEUNG',
  周: 'CHOW',
  谢: 'TSE',
  邓: 'TANG',
  冯: 'FUNG',
  曾: 'TSANG',
  罗: 'LAW',
  蔡: 'CHOI',
  许: 'HUI',
  郭: 'KWOK',
  叶: 'YIP',
  卢: 'LO',
  朱: 'CHU',
  徐: 'TSUI',
  苏: 'SO',
  余: 'YU',
  马: 'MA',
  钟: 'CHUNG',
  袁: 'YUEN',
  胡: 'WU',
  潘: 'POON',
  江: 'KONG',
  汤: 'TONG',
  孔: 'HUNG',
  莫: 'MOK',
  方: 'FONG',
  彭: 'PANG',
  唐: 'TONG',
  文: 'MAN',
};

/** Cantonese readings of common given-name characters, as Hong Kong identity cards write them. */
export const HONG_KONG_GIVEN: Record<string, string> = {
  伟: 'WAI',
  明: 'MING',
  文: 'MAN',
  嘉: 'KA',
  志: 'CHI',
  国: 'KWOK',
  华: 'WAH',
  强: 'KEUNG',
  英: 'YING',
  美: 'MEI',
  丽: 'LAI',
  芳: 'FONG',
  敏: 'MAN',
  俊: 'CHUN',
  杰: 'KIT',
  欣: 'YAN',
  婷: 'TING',
  健: 'KIN',
  建: 'KIN',
  永: 'WING',
  德: 'TAK',
  荣: 'WING',
  凯: 'HOI',
  晓: 'HIU',
  浩: 'HO',
  子: 'TSZ',
  海: 'HOI',
  峰: 'FUNG',
  玉: 'YUK',
  兰: 'LAN',
  春: 'CHUN',
  梅: 'MUI',
  金: 'KAM',
  家: 'KA',
  诗: 'SZE',
  雅: 'NGA',
  慧: 'WAI',
  颖: 'WING',
  天: 'TIN',
  宝: 'PO',
};

/** Taiwan's Wade-Giles spelling (as Taiwanese passports mostly write it) of common surnames. */
export const TAIWAN_SURNAMES: Record<string, string> = {
  陈: 'CHEN',
  林: 'LIN',
  黄: 'HUANG',
  张: 'CHANG',
  李: 'LI',
  王: 'WANG',
  吴: 'WU',
  刘: 'LIU',
  蔡: 'TSAI',
  杨: 'YANG',
  许: 'HSU',
  郑: 'CHENG',
  谢: 'HSIEH',
  郭: 'KUO',
  洪: 'HUNG',
  邱: 'CHIU',
  曾: 'TSENG',
  廖: 'LIAO',
  赖: 'LAI',
  周: 'CHOU',
  徐: 'HSU',
  苏: 'SU',
  叶: 'YEH',
  庄: 'CHUANG',
  吕: 'LU',
  江: 'CHIANG',
  何: 'HO',
  萧: 'HSIAO',
  罗: 'LO',
  高: 'KAO',
};

/** Wade-Giles readings of common given-name characters in Taiwan. */
export const TAIWAN_GIVEN: Record<string, string> = {
  志: 'CHIH',
  明: 'MING',
  伟: 'WEI',
  家: 'CHIA',
  建: 'CHIEN',
  俊: 'CHUN',
  宏: 'HUNG',
  文: 'WEN',
  雅: 'YA',
  婷: 'TING',
  怡: 'YI',
  君: 'CHUN',
  佳: 'CHIA',
  美: 'MEI',
  玲: 'LING',
  淑: 'SHU',
  惠: 'HUI',
  芬: 'FEN',
  宗: 'TSUNG',
  哲: 'CHE',
  嘉: 'CHIA',
  豪: 'HAO',
  杰: 'CHIEH',
  冠: 'KUAN',
  廷: 'TING',
  承: 'CHENG',
  翰: 'HAN',
  柏: 'PO',
  育: 'YU',
  诗: 'SHIH',
};

/** The most common given names in the United States (Social Security Administration, 1925-2024 totals). */
export const ENGLISH_GIVEN = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Karen',
  'Christopher',
  'Sarah',
  'Charles',
  'Lisa',
  'Daniel',
  'Nancy',
  'Matthew',
  'Sandra',
  'Anthony',
  'Betty',
  'Mark',
  'Ashley',
  'Donald',
  'Emily',
  'Steven',
  'Kimberly',
  'Andrew',
  'Margaret',
  'Paul',
  'Donna',
  'Joshua',
  'Michelle',
  'Kenneth',
  'Carol',
  'Kevin',
  'Amanda',
  'Brian',
  'Melissa',
  'Timothy',
  'Deborah',
  'Ronald',
  'Stephanie',
  'George',
  'Rebecca',
  'Jason',
  'Sharon',
  'Edward',
  'Laura',
  'Jeffrey',
  'Cynthia',
  'Ryan',
  'Amy',
];

/** The most common surnames in the United States (Census Bureau, 2010 census surname file). */
export const ENGLISH_SURNAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
];

/** The most common Korean surnames (Statistics Korea, 2015 census) in their passport spelling. */
export const KOREAN_SURNAMES = [
  'KIM',
  'LEE',
  'PARK',
  'CHOI',
  'JUNG',
  'KANG',
  'CHO',
  'YOON',
  'JANG',
  'LIM',
  'HAN',
  'OH',
  'SEO',
  'SHIN',
  'KWON',
  'HWANG',
  'AHN',
  'SONG',
  'YOO',
  'HONG',
];

/** Common Korean given names (Supreme Court registry, most given names by birth decade). */
export const KOREAN_GIVEN = [
  'MIN-JUN',
  'SEO-YEON',
  'JI-HOON',
  'JI-WOO',
  'SEO-JUN',
  'HA-EUN',
  'DO-YUN',
  'MIN-SEO',
  'YE-JUN',
  'JI-MIN',
  'HYUN-WOO',
  'SU-BIN',
  'JAE-HYUN',
  'EUN-JI',
  'SUNG-MIN',
  'YOUNG-HO',
  'JUNG-HOON',
  'MI-KYUNG',
  'HYE-JIN',
  'DONG-HYUN',
  'YOUNG-SOOK',
  'SANG-HOON',
  'EUN-YOUNG',
  'JI-YOUNG',
];

/** The most common Japanese surnames (Meiji Yasuda / myoji-yurai rankings). */
export const JAPANESE_SURNAMES = [
  'SATO',
  'SUZUKI',
  'TAKAHASHI',
  'TANAKA',
  'WATANABE',
  'ITO',
  'YAMAMOTO',
  'NAKAMURA',
  'KOBAYASHI',
  'KATO',
  'YOSHIDA',
  'YAMADA',
  'SASAKI',
  'YAMAGUCHI',
  'MATSUMOTO',
  'INOUE',
  'KIMURA',
  'HAYASHI',
  'SHIMIZU',
  'YAMAZAKI',
];

/** Common Japanese given names (Meiji Yasuda Life's annual newborn name survey, several decades). */
export const JAPANESE_GIVEN = [
  'HIROSHI',
  'TAKASHI',
  'MAKOTO',
  'KENJI',
  'YUKI',
  'HARUTO',
  'SOTA',
  'YUTO',
  'REN',
  'DAIKI',
  'YUI',
  'AOI',
  'HINA',
  'SAKURA',
  'YUNA',
  'MEI',
  'AKIKO',
  'KEIKO',
  'TOMOKO',
  'NAOKO',
];

/** Vietnamese family, middle and given names (the most common family names cover about 90%). */
export const VIETNAMESE_SURNAMES = [
  'NGUYEN',
  'TRAN',
  'LE',
  'PHAM',
  'HOANG',
  'HUYNH',
  'PHAN',
  'VU',
  'VO',
  'DANG',
  'BUI',
  'DO',
  'HO',
  'NGO',
  'DUONG',
  'LY',
];
export const VIETNAMESE_MIDDLE = ['VAN', 'THI', 'DUC', 'MINH', 'NGOC', 'THANH', 'QUANG', 'HOANG'];
export const VIETNAMESE_GIVEN = [
  'ANH',
  'HUNG',
  'LINH',
  'HUONG',
  'TUAN',
  'DUNG',
  'HOA',
  'LAN',
  'NAM',
  'HAI',
  'THU',
  'TRANG',
  'PHUONG',
  'LONG',
  'KHANH',
  'MAI',
  'SON',
  'HA',
];

/*
 * The passport groups' ordinary applicants (issue 53), written as passports write them. None of
 * these lists gives frequencies; each holds names at the head of the rankings it names.
 */
/**
 * The commonest Russian surnames as the surname-frequency studies rank them (Balanovsky et al.'s
 * regional lists of 2005; Smirnov, Ivanov, Kuznetsov lead every ranking), masculine form.
 */
export const RUSSIAN_SURNAMES_CYRILLIC = [
  ...'Смирнов Иванов Кузнецов Соколов Попов Лебедев Козлов Новиков Морозов Петров Волков Соловьёв Васильев Зайцев Павлов Семёнов Голубев Виноградов Богданов Воробьёв Фёдоров Михайлов Беляев Тарасов Белов Комаров Орлов Киселёв Макаров Андреев Ковалёв Ильин Гусев Титов Кузьмин Кудрявцев Баранов Куликов Алексеев Степанов Яковлев Сорокин Сергеев Романов Захаров Борисов Королёв Герасимов Пономарёв Григорьев'.split(
    ' ',
  ),
];
/** Given names most often registered in Russia for those born 1950 to 2005 (registry-office rankings). */
export const RUSSIAN_GIVEN_NAMES_CYRILLIC = {
  male: [
    ...'Александр Сергей Дмитрий Андрей Алексей Максим Евгений Иван Михаил Артём Николай Владимир Игорь Олег Юрий Роман Павел Денис Антон Виктор Илья Кирилл Никита Константин Вячеслав'.split(
      ' ',
    ),
  ],
  female: [
    ...'Елена Ольга Наталья Татьяна Ирина Светлана Анна Юлия Екатерина Мария Марина Анастасия Дарья Ксения Людмила Галина'.split(
      ' ',
    ),
  ],
};
/** Patronymics formed from the commonest fathers' names (masculine; -на for the feminine). */
export const RUSSIAN_PATRONYMICS_CYRILLIC = [
  ...'Александрович Сергеевич Владимирович Николаевич Викторович Юрьевич Андреевич Алексеевич Иванович Михайлович'.split(
    ' ',
  ),
];
/**
 * Common Kazakh, Uzbek, Kyrgyz and Tajik names as their Russian-language documents write them
 * (the surnames that lead those countries' rankings: Akhmedov, Aliev, Karimov, Rakhimov ...).
 */
export const CENTRAL_ASIAN_SURNAMES_CYRILLIC = [
  ...'Ахмедов Алиев Каримов Рахимов Юсупов Исмаилов Абдуллаев Назаров Султанов Усманов Турсунов Хасанов Касымов Жумабаев Сапаров Мамедов Нурматов Ермеков Садыков Ибрагимов'.split(
    ' ',
  ),
];
export const CENTRAL_ASIAN_GIVEN_NAMES_CYRILLIC = {
  male: [
    ...'Рустам Тимур Руслан Бахтияр Шухрат Джамшид Нурлан Ерлан Азамат Алишер Дилшод Жасур Бекзод Улугбек Санжар Акмаль Даурен Асхат'.split(
      ' ',
    ),
  ],
  female: [...'Гульнара Дильноза Айгуль Зарина Мадина Малика Нигора Динара Асель'.split(' ')],
};
/**
 * Common given names and family names in Egypt, the Levant, Iraq and the Gulf (Mohamed, Ahmed,
 * Ali, Hassan head every ranking of them), in the spellings their passports use.
 */
export const ARABIC_GIVEN_NAMES = [
  ...'Mohamed Muhammad Mohammad Mohammed Ahmed Ahmad Ali Omar Hassan Hussein Mahmoud Khaled Mustafa Youssef Ibrahim Abdullah Said Tarek Karim Sami Nabil Hani Fadi Rami Ziad Samir Amr Yasser Adel Osama'.split(
    ' ',
  ),
];
export const ARABIC_FAMILY_NAMES = [
  ...'Hassan Ali Ibrahim Mahmoud Abdullah Saleh Khalil Haddad Nasser Mansour Hamdan Saeed Othman Darwish Suleiman Youssef Qasim Aziz Farouk Shaker Issa Hamad Najjar Khoury Sabbagh Abdelaziz Elsayed Abdelrahman Hamdi Ismail'.split(
    ' ',
  ),
];
/**
 * Spain's commonest surnames and given names (Instituto Nacional de Estadística, "Apellidos y
 * nombres más frecuentes": García, Rodríguez, González ...; Antonio, Manuel, José ...).
 */
export const SPANISH_SURNAMES = [
  ...'García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández Díaz Moreno Álvarez Romero Alonso Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Molina Castro Ortiz'.split(
    ' ',
  ),
];
export const SPANISH_GIVEN_NAMES = [
  ...'Antonio;Manuel;José;Francisco;David;Juan;Javier;José Antonio;Daniel;José Luis;Francisco Javier;Carlos;Jesús;Alejandro;Miguel;María Carmen;María;Carmen;Ana María;Laura;María Pilar;María Dolores;Isabel;Josefa;Ana;Marta;Cristina;Lucía'.split(
    ';',
  ),
];
/**
 * Portugal's and Brazil's commonest surnames and given names (Silva, Santos, Ferreira, Pereira lead
 * both countries' rankings; given names as Portugal's Instituto dos Registos e do Notariado lists
 * the most registered).
 */
export const PORTUGUESE_SURNAMES = [
  ...'Silva Santos Ferreira Pereira Oliveira Costa Rodrigues Martins Jesus Sousa Fernandes Gonçalves Gomes Lopes Marques Alves Almeida Ribeiro Pinto Carvalho Teixeira Moreira Correia Mendes Nunes Soares Vieira Monteiro Cardoso Rocha'.split(
    ' ',
  ),
];
export const PORTUGUESE_GIVEN_NAMES = [
  ...'Maria;José;João;António;Ana;Manuel;Francisco;Carlos;Paulo;Pedro;Luís;Jorge;Rui;Miguel;Fernando;Joana;Sofia;Beatriz;Mariana;Inês;Rita;Catarina;Carla;Ana Paula;João Pedro;Maria José'.split(
    ';',
  ),
];
