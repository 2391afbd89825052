/**
 * ISO 3166-1 numeric codes of the countries of the default `country` table. The foreigner's
 * permanent residence card (2023 edition) embeds the holder's nationality as this code (digits 4-6),
 * so the identity check compares it with `country`. A country an operator's table adds beyond these
 * is not compared (the rest of the number still is).
 */
export const ISO_NUMERIC: Readonly<Record<string, string>> = {
  CN: '156', HK: '344', MO: '446', TW: '158', SG: '702', MY: '458', TH: '764', ID: '360',
  PH: '608', VN: '704', KH: '116', LA: '418', MM: '104', JP: '392', KR: '410', MN: '496',
  KZ: '398', IN: '356', PK: '586', BD: '050', AE: '784', SA: '682', IL: '376', TR: '792',
  RU: '643', GB: '826', IE: '372', FR: '250', DE: '276', NL: '528', BE: '056', LU: '442',
  CH: '756', AT: '040', IT: '380', ES: '724', PT: '620', SE: '752', NO: '578', DK: '208',
  FI: '246', PL: '616', US: '840', CA: '124', MX: '484', BR: '076', AR: '032', AU: '036',
  NZ: '554', ZA: '710', EG: '818', NG: '566',
}; // prettier-ignore
