import type { ApplicationRequest } from '../../record/schema.ts';

/**
 * The example applicant: the OpenAPI document's submit example, the README walk-through's, and the
 * tests' valid applicant (test/helpers/applicantFixture.ts), so the three can never disagree. A
 * mainland identity card holder; `pay_pwd` is the MD5 of 704193.
 */
export const EXAMPLE_APPLICANT = {
  address: '广东省-深圳市-南山区-科技园路1号',
  birthday: '1990-03-07',
  sex: 'M',
  cert_type: '00',
  cert_id: '440305199003071236',
  country: 'CN',
  id_card_img: 'https://img.example.com/a/id-front.jpg',
  id_card_back_img: 'https://img.example.com/a/id-back.jpg',
  cert_start_date: '2015-06-01',
  cert_end_date: '2045-06-01',
  passport_img: 'https://img.example.com/a/passport.jpg',
  email: 'li.lei@example.com',
  mob_no: '13800138000',
  mob_no_of: '+86',
  name: '李雷',
  name_en: 'LI LEI',
  company_name: '深圳市示例科技有限公司',
  office_address: '广东省-深圳市-南山区-科技园路2号',
  office_tel_no: '75586000000',
  office_tel_no_of: '+86',
  position: '04',
  pay_pwd: '97b24f7696e25258fabac36171807fe5',
  profession: 'I',
  purpose: ['01', '04'],
  sign_applicant: 'https://img.example.com/a/sign.png',
  wealth_source: ['01'],
  yearly_income: '200000',
  years_of_service: '5',
  consignee: '李雷',
  consignee_mob_no: '13800138000',
  consignee_mob_no_of: '+86',
  consignee_address: '广东省-深圳市-南山区-科技园路1号',
  pay_voucher: 'https://img.example.com/a/voucher.jpg',
} satisfies Omit<ApplicationRequest, 'app_id' | 'timestamp'>;
