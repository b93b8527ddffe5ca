import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildAliyunStringToSign,
  percentEncodeAliyun,
  signAliyunRpc,
} from '../../../src/providers/sms/aliyun.signature.ts';
import { parseTc3Authorization, signTc3 } from '../../../src/providers/sms/tencent.signature.ts';

describe('Aliyun RPC signature v1 (HMAC-SHA1)', () => {
  // Aliyun's "RPC 签名机制" document: DescribeRegions, AccessKeySecret testsecret, GET.
  it('reproduces the worked example of the RPC signature document', () => {
    const params = {
      Timestamp: '2016-02-23T12:46:24Z',
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      Version: '2014-05-26',
      SignatureVersion: '1.0',
    };
    expect(buildAliyunStringToSign('GET', params)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
    expect(signAliyunRpc('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  // The Dysmsapi SendSms signature example (AccessKeyId testId, secret testSecret), Chinese SignName.
  it('reproduces the SendSms example of the SMS documentation', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(buildAliyunStringToSign('GET', params)).toBe(
      'GET&%2F&AccessKeyId%3DtestId%26Action%3DSendSms%26Format%3DXML%26OutId%3D123%26PhoneNumbers%3D15300000001' +
        '%26RegionId%3Dcn-hangzhou%26SignName%3D%25E9%2598%25BF%25E9%2587%258C%25E4%25BA%2591%25E7%259F%25AD' +
        '%25E4%25BF%25A1%25E6%25B5%258B%25E8%25AF%2595%25E4%25B8%2593%25E7%2594%25A8%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D45e25e9b-0a6f-4070-8c85-2956eda1b466%26SignatureVersion%3D1.0' +
        '%26TemplateCode%3DSMS_71390007%26TemplateParam%3D%257B%2522customer%2522%253A%2522test%2522%257D' +
        '%26Timestamp%3D2017-07-12T02%253A42%253A19Z%26Version%3D2017-05-25',
    );
    expect(signAliyunRpc('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('signs POST differently from GET, ignores a Signature parameter and changes with any value', () => {
    const params = {
      AccessKeyId: 'k',
      Action: 'SendSms',
      PhoneNumbers: '13800138000',
      Timestamp: '2026-01-01T00:00:00Z',
    };
    const post = signAliyunRpc('POST', params, 's');
    expect(post).not.toBe(signAliyunRpc('GET', params, 's'));
    expect(signAliyunRpc('POST', { ...params, Signature: 'whatever' }, 's')).toBe(post);
    expect(signAliyunRpc('POST', { ...params, PhoneNumbers: '13800138001' }, 's')).not.toBe(post);
    expect(signAliyunRpc('POST', params, 't')).not.toBe(post);
  });

  it('percent-encodes what encodeURIComponent leaves alone', () => {
    expect(percentEncodeAliyun("a b*c~d!'()")).toBe('a%20b%2Ac~d%21%27%28%29');
    expect(percentEncodeAliyun('/=&+')).toBe('%2F%3D%26%2B');
  });
});

describe('Tencent Cloud TC3-HMAC-SHA256', () => {
  // Tencent's "签名方法 v3" document: CVM DescribeInstances at 1551113065 with the document's
  // (masked) sample SecretId/SecretKey, exactly as printed there.
  const docInput = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
    service: 'cvm',
    timestamp: 1551113065,
    headers: { 'Content-Type': 'application/json; charset=utf-8', Host: 'cvm.tencentcloudapi.com' },
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  };

  it('reproduces the worked example of the v3 signature document', () => {
    const s = signTc3(docInput);
    expect(s.canonicalRequest).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n' +
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    );
    expect(s.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n' +
        '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(s.signature).toBe('2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c');
    expect(s.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('matches the documented steps re-done by hand for an SMS request with x-tc-action signed', () => {
    const payload = '{"PhoneNumberSet":["+8613800138000"],"TemplateParamSet":["123456"]}';
    const s = signTc3({
      secretId: 'id',
      secretKey: 'key',
      service: 'sms',
      timestamp: 1767225600, // 2026-01-01T00:00:00Z
      headers: {
        'content-type': 'application/json; charset=utf-8',
        host: 'sms.tencentcloudapi.com',
        'x-tc-action': 'SendSms',
      },
      payload,
    });
    const sha = (d: string) => createHash('sha256').update(d).digest('hex');
    const mac = (k: string | Buffer, d: string) => createHmac('sha256', k).update(d).digest();
    const canonical = `POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:sms.tencentcloudapi.com\nx-tc-action:sendsms\n\ncontent-type;host;x-tc-action\n${sha(payload)}`;
    const toSign = `TC3-HMAC-SHA256\n1767225600\n2026-01-01/sms/tc3_request\n${sha(canonical)}`;
    const key = mac(mac(mac('TC3key', '2026-01-01'), 'sms'), 'tc3_request');
    expect(s.canonicalRequest).toBe(canonical);
    expect(s.signature).toBe(createHmac('sha256', key).update(toSign).digest('hex'));
  });

  it('parses its own Authorization header and rejects a malformed one', () => {
    const parsed = parseTc3Authorization(signTc3(docInput).authorization);
    expect(parsed).toEqual({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
      date: '2019-02-25',
      service: 'cvm',
      signedHeaders: ['content-type', 'host'],
      signature: '2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    });
    expect(parseTc3Authorization('TC3-HMAC-SHA256 Credential=x, Signature=abc')).toBeNull();
  });
});
