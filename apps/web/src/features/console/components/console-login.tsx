import { Button, Card, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { useLogin } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.login;

/** /admin/login: username, password and the authenticator's 6-digit code. */
export function ConsoleLogin() {
  const login = useLogin();
  const navigate = useNavigate();
  return (
    <div className="console-login">
      <Card title={t.heading} style={{ width: 380 }}>
        <Form
          layout="vertical"
          onFinish={(values: { username: string; password: string; totpCode: string }) =>
            login.mutate(values, { onSuccess: () => navigate('/admin', { replace: true }) })
          }
        >
          <Form.Item
            name="username"
            label={t.username}
            rules={[{ required: true, message: t.required.username }]}
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t.password}
            rules={[{ required: true, message: t.required.password }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="totpCode"
            label={t.totp}
            extra={t.totpHint}
            rules={[
              {
                required: true,
                pattern: /^\s*([0-9]{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})\s*$/,
                message: t.required.totp,
              },
            ]}
          >
            <Input maxLength={11} autoComplete="one-time-code" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t.submit}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
