import { OK, population } from './population.ts';

/**
 * Pinyin as it is printed (issue 25): mainland applicants' `name_en` with `Ü` and with the
 * syllable-dividing apostrophe. Sources: GB/T 28039-2011 中国人名汉语拼音字母拼写规则 (ü written Ü,
 * or YU where the keyboard has none; the apostrophe before a syllable beginning with a, o or e that
 * follows another), 汉语拼音方案 (1958: 隔音符号, ü after j q x y written u), and PRODUCT.md
 * ("Names": ü as V, U, YU; spacing free at syllable boundaries).
 */
const { add, cases } = population('pinyin-as-printed');
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add('mainland', '吕思源, Ü as the pinyin has it', { name: '吕思源', name_en: 'LÜ SIYUAN' }, OK, 'GB/T 28039-2011: ü written Ü');
add('mainland', '吕思源, Ü and syllables apart', { name: '吕思源', name_en: 'LÜ SI YUAN' }, OK, 'GB/T 28039-2011; PRODUCT Names: spacing free');
add('mainland', '吕思源, Ü typed as U and a combining diaeresis', { name: '吕思源', name_en: 'LU\u0308 SIYUAN' }, OK, 'Unicode NFKC composes U+0308; GB/T 28039-2011');
add('mainland', '李绿, given name 绿 written LÜ', { name: '李绿', name_en: 'LI LÜ' }, OK, 'GB/T 28039-2011: ü written Ü');
add('mainland', '吕思源 on a passport, LYU as printed', { name: '吕思源', name_en: 'LYU SIYUAN', cert_type: '02', cert_id: 'E12345678' }, OK, 'PRODUCT Names: ü as YU; GB/T 28039-2011');
add('mainland', '李吉安, the apostrophe of 吉安', { name: '李吉安', name_en: "LI JI'AN" }, OK, '汉语拼音方案: 隔音符号 before a, o, e');
add('mainland', '李吉安, typographic apostrophe from a word processor', { name: '李吉安', name_en: 'LI JI’AN' }, OK, 'PRODUCT first rule: the way a form wrote the value');
add('mainland', '王西安, XI’AN not XIAN', { name: '王西安', name_en: "WANG XI'AN" }, OK, '汉语拼音方案: 隔音符号');
add('mainland', '张平安', { name: '张平安', name_en: "ZHANG PING'AN" }, OK, '汉语拼音方案: 隔音符号');
add('mainland', '刘恩泽, the apostrophe before E', { name: '刘恩泽', name_en: "LIU'EN ZE" }, OK, '汉语拼音方案: 隔音符号 before e');
add('mainland', '李吉安 without the apostrophe', { name: '李吉安', name_en: 'LI JIAN' }, OK, 'PRODUCT Names: spacing free');
add('mainland', '李雷 with an apostrophe that divides nothing', { name: '李雷', name_en: "LI'LEI" }, [['name_en', 'nameEnPinyinForm']], '汉语拼音方案: the apostrophe only before a, o, e');
add('mainland', '白居易 with Ü after J', { name: '白居易', name_en: 'BAI JÜ YI' }, [['name_en', 'nameEnPinyinForm']], '汉语拼音方案: ü after j, q, x, y is written u');
add('mainland', '张伟 with a hyphen between the syllables', { name_en: 'ZHANG-WEI' }, [['name_en', 'nameEnPinyinForm']], 'GB/T 28039-2011: surname and given name apart, no hyphen');
add('mainland', '张伟 with tone marks', { name_en: 'ZHĀNG WĚI' }, [['name_en', 'nameEnPinyinForm']], 'GB/T 28039-2011: tone marks left out in names');
add('mainland', '张伟 with name_en in Chinese characters', { name_en: '张伟' }, [['name_en', 'nameEnPinyinForm']], 'spec: the pinyin name in capital letters');
add('mainland', '吕思源 in lower case with ü', { name: '吕思源', name_en: 'lü siyuan' }, [['name_en', 'nameEnNotCapitals']], 'spec: capital letters');
add('mainland', '吕思源 with LÜ but another given name', { name: '吕思源', name_en: 'LÜ SIYANG' }, [['name_en', 'nameEnPinyinMismatch']], 'PRODUCT Names: the pinyin of name');
}

export const PINYIN_CASES = cases;
