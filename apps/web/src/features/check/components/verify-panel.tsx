import { CheckCircleFilled, CloseCircleFilled, SafetyCertificateOutlined } from '@ant-design/icons';
import { isAigcFigureShown } from '@kyfw/contracts';
import { Button, Form, Input } from 'antd';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { RequestError } from '../../../lib/request';
import { useVerifyReport } from '../api/verify-report';
import { formatChars, formatPercent, formatTime } from '../lib/format';
import { checkTexts as t } from '../texts';
import type { VerifyResult } from '../types';
import '../check.css';

interface Values {
  reportNo: string;
  code: string;
}

type Outcome = { kind: 'genuine'; result: VerifyResult } | { kind: 'failed'; message: string } | null;

/** What the last check said, from the mutation's state. */
function outcomeOf(verify: ReturnType<typeof useVerifyReport>): Outcome {
  if (verify.isSuccess) return { kind: 'genuine', result: verify.data };
  if (verify.isError) {
    const error = verify.error;
    return {
      kind: 'failed',
      message: error instanceof RequestError && error.kind === 'business' ? error.message : t.verifyNetwork,
    };
  }
  return null;
}

/**
 * /check/verify (public): report number + verification code -> the summary the server signed, or
 * a clear message. The QR code of a report opens it with both filled in, and it checks at once.
 */
export function VerifyPanel() {
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const verify = useVerifyReport();
  const outcome = outcomeOf(verify);
  const auto = useRef(false);

  const run = (values: Values) => {
    const reportNo = values.reportNo.trim().toUpperCase();
    const code = values.code.trim().toUpperCase();
    verify.mutate({ reportNo, code }, { onSuccess: () => setParams({ reportNo, code }, { replace: true }) });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, from the link's query
  useEffect(() => {
    if (auto.current) return;
    auto.current = true;
    const reportNo = params.get('reportNo') ?? '';
    const code = params.get('code') ?? '';
    form.setFieldsValue({ reportNo, code });
    if (reportNo && code) run({ reportNo, code });
  }, []);

  return (
    <div className="ck-verify">
      <p className="ck-verify__intro">{t.verifyIntro}</p>
      <Form<Values>
        form={form}
        layout="inline"
        className="ck-verify__form"
        onFinish={run}
        onValuesChange={() => {
          if (!verify.isPending) verify.reset();
        }}
        initialValues={{ reportNo: '', code: '' }}
      >
        <Form.Item
          name="reportNo"
          label={t.verifyNoLabel}
          rules={[{ required: true, whitespace: true, message: t.verifyNoRequired }]}
        >
          <Input placeholder={t.verifyNoPlaceholder} maxLength={40} allowClear className="ck-verify__no" />
        </Form.Item>
        <Form.Item
          name="code"
          label={t.verifyCodeLabel}
          rules={[{ required: true, whitespace: true, message: t.verifyCodeRequired }]}
        >
          <Input
            placeholder={t.verifyCodePlaceholder}
            maxLength={20}
            allowClear
            className="ck-verify__code"
          />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={verify.isPending}
            icon={<SafetyCertificateOutlined />}
          >
            {t.verifySubmit}
          </Button>
        </Form.Item>
      </Form>

      {outcome?.kind === 'genuine' && (
        <section className="ck-verify__result is-genuine" data-testid="verify-result" role="status">
          <header>
            <CheckCircleFilled />
            <div>
              <strong>{outcome.result.message || t.verifyGenuine}</strong>
              <p className="muted">{t.verifyGenuineHint}</p>
            </div>
          </header>
          <dl className="ck-verify__facts">
            <div>
              <dt>{t.reportNo}</dt>
              <dd className="ck-mono">{outcome.result.reportNo}</dd>
            </div>
            <div>
              <dt>{t.paperTitle}</dt>
              <dd>{outcome.result.title}</dd>
            </div>
            <div>
              <dt>{t.paperAuthor}</dt>
              <dd>{outcome.result.author}</dd>
            </div>
            <div>
              <dt>{t.paperGoods}</dt>
              <dd>{outcome.result.goodsName}</dd>
            </div>
            <div>
              <dt>{t.totalChars}</dt>
              <dd>{formatChars(outcome.result.totalChars)}</dd>
            </div>
            {outcome.result.kind === 'aigc' ? (
              <div>
                <dt>{t.aigc.indexLabel}</dt>
                <dd className="ck-verify__rate">
                  {isAigcFigureShown({
                    reliable: outcome.result.aigcReliable === true,
                    flaggedChars: outcome.result.copiedChars,
                  })
                    ? (outcome.result.aigcScore ?? 0).toFixed(1)
                    : t.aigc.paragraphNone}
                </dd>
              </div>
            ) : (
              <>
                <div>
                  <dt>{t.copiedChars}</dt>
                  <dd>{formatChars(outcome.result.copiedChars)}</dd>
                </div>
                <div>
                  <dt>{t.ratio}</dt>
                  <dd className="ck-verify__rate">{formatPercent(outcome.result.ratio)}</dd>
                </div>
                <div>
                  <dt>{t.ratioExcludingQuotes}</dt>
                  <dd>{formatPercent(outcome.result.ratioExcludingQuotes)}</dd>
                </div>
                <div>
                  <dt>{t.maxSingle}</dt>
                  <dd>{formatPercent(outcome.result.maxSingleSourceRatio)}</dd>
                </div>
                {outcome.result.aigcAddon && (
                  // The AIGC detection ordered with the check (signed with the report).
                  <div data-testid="verify-aigc-addon">
                    <dt>{t.addon.verifyLabel}</dt>
                    <dd>
                      {outcome.result.aigcAddon.failed
                        ? t.addon.verifyFailed
                        : isAigcFigureShown({
                              reliable: outcome.result.aigcAddon.reliable === true,
                              flaggedChars: outcome.result.aigcAddon.flaggedChars ?? 0,
                            })
                          ? (outcome.result.aigcAddon.score ?? 0).toFixed(1)
                          : t.aigc.paragraphNone}
                    </dd>
                  </div>
                )}
              </>
            )}
            <div>
              <dt>{t.checkedAt}</dt>
              <dd>{formatTime(outcome.result.checkedAt, true)}</dd>
            </div>
          </dl>
          <p className="ck-disclaimer muted">
            {outcome.result.kind === 'aigc' ? t.aigc.verifyDisclaimer : t.disclaimer}
          </p>
        </section>
      )}
      {outcome?.kind === 'failed' && (
        <section className="ck-verify__result is-failed" data-testid="verify-result" role="alert">
          <header>
            <CloseCircleFilled />
            <div>
              <strong>{t.verifyFailedTitle}</strong>
              <p>{outcome.message}</p>
              <p className="muted">{t.verifyFailedHint}</p>
            </div>
          </header>
        </section>
      )}
    </div>
  );
}
