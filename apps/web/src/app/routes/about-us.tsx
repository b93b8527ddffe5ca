import { PageHero } from '../../components/page/page-hero';

const values = [
  { title: '可靠', text: '查重报告按公开的指标口径计算，逐段标注来源，结果可追溯、可复核。' },
  { title: '尊重隐私', text: '论文默认不入库，数据存储在中国大陆境内，账号可随时自助注销。' },
  { title: '诚信', text: '我们提供的是辅助工具：报告不是最终结论，AI 写作结果需要作者本人核实与完善。' },
];

export default function AboutUsPage() {
  return (
    <div className="service-page">
      <PageHero
        eyebrow="科研服务网"
        title="关于我们"
        description="科研服务网面向高校学生、科研人员与期刊作者，提供论文查重、降重、降AIGC、AI辅助写作、收录引用检索与科技查新等一站式学术服务，帮助作者更规范、更高效地完成论文。"
      />
      <div className="container service-page__body">
        <section>
          <h2 className="section-title">我们坚持</h2>
          <div className="highlight-grid">
            {values.map((v) => (
              <div key={v.title} className="highlight card-surface">
                <h3>{v.title}</h3>
                <p>{v.text}</p>
              </div>
            ))}
          </div>
        </section>
        <section className="card-surface">
          <h2 className="section-title">联系我们</h2>
          <p>客服电话与公司地址见页面底部。工作时间内我们会尽快响应你的咨询与售后需求。</p>
        </section>
      </div>
    </div>
  );
}
