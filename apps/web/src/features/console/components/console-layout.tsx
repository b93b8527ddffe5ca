import { staffCan } from '@kyfw/contracts';
import { Button, Layout, Menu, Space, Spin, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useLogout, useStaff } from '../api/console-api';
import { CONSOLE_PAGES, findConsolePage } from '../pages';
import { consoleTexts } from '../texts';

const pageHref = (path: string) => (path ? `/admin/${path}` : '/admin');

/** The console's own layout: side menu, staff name and role, 退出登录; no session -> /admin/login. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = useStaff();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  if (staff.isPending) {
    return (
      <div className="console-loading">
        <Spin description={consoleTexts.loading} />
      </div>
    );
  }
  if (staff.isError) return <Navigate to="/admin/login" replace />;
  const items = CONSOLE_PAGES.filter((p) => staffCan(staff.data.role, p.permission)).map((p) => ({
    key: pageHref(p.path),
    label: p.label,
  }));
  const current = findConsolePage(location.pathname.replace(/^\/admin\/?/, '').replace(/\/$/, ''));
  return (
    <Layout className="console" style={{ minHeight: '100vh' }}>
      {/* Below lg (a phone) the menu folds away behind antd's trigger, so a page has the width. */}
      <Layout.Sider width={200} theme="dark" breakpoint="lg" collapsedWidth={0}>
        <div className="console__brand">{consoleTexts.title}</div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={current ? [pageHref(current.path)] : []}
          items={items}
          onClick={({ key }) => navigate(key)}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console__header">
          <Space>
            <span>{staff.data.username}</span>
            <Tag color="blue">{staff.data.roleText}</Tag>
            <Button
              size="small"
              loading={logout.isPending}
              onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/admin/login') })}
            >
              {consoleTexts.logout}
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content className="console__content">{children}</Layout.Content>
      </Layout>
    </Layout>
  );
}
