import type { SeedService } from './types.ts'

export const services: SeedService[] = [
  {
    id: 'uk-company-formation',
    title: 'UK Company Formation',
    description:
      'Register a private limited company with Companies House, whether you live in the UK or abroad. We prepare and file your incorporation application, check your company name and guide you through identity verification, so you can start trading with the right structure from day one.',
    category: 'company-formation',
    imageUrl: '/images/services/uk-company-formation.svg',
    featured: true,
    packages: [
      {
        name: 'Standard',
        price: '300.00',
        currency: 'GBP',
        description: 'Everything you need to incorporate a UK private limited company by shares.',
        features: [
          'Company name availability check',
          'Preparation and electronic filing of your incorporation application',
          'Companies House incorporation fee included',
          'Model articles of association, or your own articles if provided',
          'Digital certificate of incorporation and share certificates',
          'Guidance on identity verification for directors and PSCs',
        ],
        processingTime: '1-3 business days',
        revisions: 1,
      },
      {
        name: 'Premium',
        price: '450.00',
        currency: 'GBP',
        description: 'Incorporation plus a registered office, HMRC registrations and the records to run your company.',
        features: [
          'Everything in Standard',
          'London registered office address for 12 months',
          'Service address for directors for 12 months',
          'Corporation Tax registration with HMRC',
          'VAT and PAYE registration support where required',
          'Statutory registers prepared and delivered',
          'Introduction to business bank account providers',
        ],
        processingTime: '2-4 business days',
        revisions: 2,
      },
    ],
    whatYouGet: [
      'Certificate of incorporation issued by Companies House',
      'Memorandum and articles of association',
      'Share certificates for every subscriber',
      'Register of members, directors and people with significant control prepared',
      'Step-by-step guidance on Companies House identity verification',
      'A checklist of your first-year filing deadlines',
      'Email support from a company formation specialist',
    ],
    requirements: [
      'Proposed company name and a short description of business activities',
      'Full name, date of birth, nationality, occupation and addresses for each director',
      'Name, address and number of shares for each shareholder',
      'Details of every person with significant control (PSC)',
      'A UK registered office address (included with Premium) and a registered email address',
    ],
    processSteps: [
      {
        step: 1,
        title: 'Submit your details',
        description:
          'Complete our secure online questionnaire with your company, director and shareholder information.',
      },
      {
        step: 2,
        title: 'Review and checks',
        description:
          'We check name availability, review your information and carry out our own anti-money-laundering identity checks.',
      },
      {
        step: 3,
        title: 'Filing with Companies House',
        description:
          'We file your application electronically. Companies House usually registers online applications within 24 hours.',
      },
      {
        step: 4,
        title: 'Receive your documents',
        description: 'You receive your certificate of incorporation, company documents and a clear list of next steps.',
      },
    ],
    faqs: [
      {
        question: 'Do I need to live in the UK to form a UK company?',
        answer:
          'No. Directors and shareholders can live anywhere in the world. The company must have a registered office address in the UK, and directors and people with significant control need to verify their identity with Companies House.',
      },
      {
        question: 'How long does incorporation take?',
        answer:
          'Once we have complete information we usually file within one business day. Companies House typically processes online applications within 24 hours, although it can take longer at busy times or if further checks are needed.',
      },
      {
        question: 'Can I use my home address as the registered office?',
        answer:
          'Yes, provided it is in the same UK jurisdiction as the company, but it will appear on the public register. The Premium package includes a registered office address so you can keep your home address off the register.',
      },
      {
        question: 'When will I get my Corporation Tax reference?',
        answer:
          'HMRC normally posts a Unique Taxpayer Reference (UTR) to the registered office after incorporation. You must register for Corporation Tax within three months of starting to do business; Premium customers have this registration done for them.',
      },
      {
        question: 'Is the Companies House fee included?',
        answer:
          'Yes. Both packages include the Companies House incorporation fee, so there is no separate government charge to form the company.',
      },
    ],
  },
  {
    id: 'usa-company-formation',
    title: 'USA Company Formation',
    description:
      'Form a US LLC or corporation in Wyoming, Delaware or Texas without travelling to the United States. We handle the state filing, registered agent, EIN application and core company documents, and explain the annual obligations that come with owning a US entity. Packages suit both US residents and international founders.',
    category: 'company-formation',
    imageUrl: '/images/services/usa-company-formation.svg',
    featured: true,
    packages: [
      {
        name: 'Wyoming LLC Starter',
        price: '350.00',
        currency: 'USD',
        description: 'A lean Wyoming LLC formation for founders who will arrange their own EIN and banking.',
        features: [
          'Articles of Organization filed with the Wyoming Secretary of State',
          'State filing fee included',
          'Wyoming registered agent for 12 months',
          'Digital copies of your filed formation documents',
          'Standard single-member operating agreement',
        ],
        processingTime: '3-5 business days',
        revisions: 1,
      },
      {
        name: 'Wyoming LLC Complete',
        price: '450.00',
        currency: 'USD',
        description: 'A ready-to-operate Wyoming LLC with an EIN, full documents and a US mailing address.',
        features: [
          'Everything in Wyoming LLC Starter',
          'EIN application with the IRS (Form SS-4)',
          'Custom operating agreement for single or multi-member LLCs',
          'US business address with mail scanning for 12 months',
          'US business bank account application guidance',
        ],
        processingTime: '3-5 business days plus IRS EIN processing',
        revisions: 2,
      },
      {
        name: 'Delaware LLC Starter',
        price: '550.00',
        currency: 'USD',
        description: 'Form a Delaware LLC, a common choice for holding companies and investor-facing businesses.',
        features: [
          'Certificate of Formation filed with the Delaware Division of Corporations',
          'State filing fee included',
          'Delaware registered agent for 12 months',
          'Digital copies of your filed formation documents',
          'Standard operating agreement',
        ],
        processingTime: '3-7 business days',
        revisions: 1,
      },
      {
        name: 'Delaware LLC Complete',
        price: '695.00',
        currency: 'USD',
        description: 'A fully documented Delaware LLC with an EIN and compliance reminders.',
        features: [
          'Everything in Delaware LLC Starter',
          'EIN application with the IRS (Form SS-4)',
          'Custom operating agreement',
          'Delaware certificate of good standing',
          'Reminders for the annual Delaware LLC tax due by 1 June',
          'US business address with mail scanning for 12 months',
        ],
        processingTime: '3-7 business days plus IRS EIN processing',
        revisions: 2,
      },
      {
        name: 'Texas LLC Complete',
        price: '795.00',
        currency: 'USD',
        description: 'A complete Texas LLC for businesses with operations, staff or customers in Texas.',
        features: [
          'Certificate of Formation filed with the Texas Secretary of State',
          'State filing fee included',
          'Texas registered agent for 12 months',
          'EIN application with the IRS (Form SS-4)',
          'Custom operating agreement',
          'Guidance on Texas franchise tax and public information reports',
        ],
        processingTime: '5-7 business days plus IRS EIN processing',
        revisions: 2,
      },
      {
        name: 'Wyoming C-Corp',
        price: '950.00',
        currency: 'USD',
        description: 'A Wyoming corporation for businesses that want a corporate structure with modest state fees.',
        features: [
          'Articles of Incorporation filed with the Wyoming Secretary of State',
          'State filing fee included',
          'Wyoming registered agent for 12 months',
          'Bylaws and initial board resolutions',
          'Share issuance documents and stock ledger',
          'EIN application with the IRS (Form SS-4)',
        ],
        processingTime: '5-7 business days plus IRS EIN processing',
        revisions: 2,
      },
      {
        name: 'Delaware C-Corp',
        price: '1200.00',
        currency: 'USD',
        description:
          'The usual structure for venture-backed start-ups, with founder equity documents ready for investors.',
        features: [
          'Certificate of Incorporation filed with the Delaware Division of Corporations',
          'State filing fee included',
          'Delaware registered agent for 12 months',
          'Bylaws, initial board consent and founder stock purchase agreements',
          'Stock ledger and founder share issuance',
          'EIN application with the IRS (Form SS-4)',
          'Guidance on 83(b) elections and the Delaware franchise tax due by 1 March',
        ],
        processingTime: '5-10 business days plus IRS EIN processing',
        revisions: 2,
      },
    ],
    whatYouGet: [
      'Filed formation documents (articles or certificate) from the state',
      'Registered agent service in your state of formation for the first year',
      'EIN application handled for you (Complete and corporation packages)',
      'Operating agreement or bylaws tailored to your ownership',
      'A compliance calendar with state and IRS deadlines',
      'Guidance on opening a US business bank account',
      'Email support throughout the formation',
    ],
    requirements: [
      'Proposed company name plus one or two alternatives',
      'Full legal name, address and passport or ID for each member, manager or director',
      'Ownership percentages or share allocations',
      'A short description of the business activity',
      'Details of the responsible party for the EIN application',
    ],
    processSteps: [
      {
        step: 1,
        title: 'Choose your package and state',
        description: 'Tell us about your business and we confirm the state and entity type that fit your plans.',
      },
      {
        step: 2,
        title: 'Name check and document preparation',
        description:
          'We check name availability with the state and prepare your formation documents for your approval.',
      },
      {
        step: 3,
        title: 'State filing',
        description:
          'We file with the Secretary of State or the Division of Corporations and set up your registered agent.',
      },
      {
        step: 4,
        title: 'EIN and handover',
        description:
          'We apply for your EIN where included and deliver your documents, compliance calendar and banking guidance.',
      },
    ],
    faqs: [
      {
        question: 'Can non-US residents form a US LLC?',
        answer:
          'Yes. No US state requires LLC members, managers or corporate directors to be US citizens or residents. You do need a registered agent with a physical address in the state of formation, which every package includes.',
      },
      {
        question: 'Do I need a Social Security number to get an EIN?',
        answer:
          'No. Owners without an SSN or ITIN can obtain an EIN by submitting Form SS-4 to the IRS by fax or post. Processing times are set by the IRS and are usually longer for international applicants than for online applications.',
      },
      {
        question: 'Which state should I choose?',
        answer:
          'Wyoming is popular for its low fees and simple annual report. Delaware is preferred by many venture investors and has a specialised business court. If you have an office, staff or other physical presence in another state, you may also need to register there, so tell us about your plans before you choose.',
      },
      {
        question: 'What are my ongoing obligations?',
        answer:
          'Most states require an annual report or franchise tax payment to keep the company in good standing. Foreign-owned single-member LLCs must also file Form 5472 with a pro forma Form 1120 each year. We include a compliance calendar, but tax returns are not prepared as part of these packages.',
      },
      {
        question: 'Does this service include tax or legal advice?',
        answer:
          'No. We provide formation and filing services and general guidance. For advice on your personal tax position or legal structure, please consult a qualified tax adviser or attorney.',
      },
    ],
  },
  {
    id: 'company-consultancy',
    title: 'Business Consultancy',
    description:
      'Get experienced, independent advice on the decisions that shape your business, from market entry and pricing to operations and growth planning. Our consultants work with founders and small business owners to diagnose problems quickly and agree practical next steps. Choose a focused session, a full health check or a 90-day growth roadmap.',
    category: 'consultancy',
    imageUrl: '/images/services/company-consultancy.svg',
    featured: true,
    packages: [
      {
        name: 'Strategy Session',
        price: '150.00',
        currency: 'USD',
        description: 'A focused 60-minute video call to work through one pressing business question.',
        features: [
          '60-minute video consultation',
          'Review of your pre-session questionnaire',
          'Written summary of recommendations',
          'Curated list of tools and resources',
          'Seven days of follow-up questions by email',
        ],
        processingTime: 'Scheduled within 3 business days',
        revisions: 1,
      },
      {
        name: 'Business Health Check',
        price: '250.00',
        currency: 'USD',
        description: 'A structured review of your business model, finances, marketing and operations.',
        features: [
          'Two 60-minute consultation calls',
          'Review of financial statements, pricing and sales pipeline',
          'SWOT and competitor snapshot',
          'Prioritised list of quick wins',
          'Written health-check report',
          'Fourteen days of email support',
        ],
        processingTime: '5-7 business days',
        revisions: 1,
      },
      {
        name: 'Growth Roadmap',
        price: '500.00',
        currency: 'USD',
        description: 'A complete 90-day growth plan built with you and reviewed after the first month.',
        features: [
          'Kick-off workshop of up to two hours',
          'Market and competitor analysis',
          'Revenue and pricing model review',
          '90-day action plan with owners and milestones',
          'KPI dashboard template',
          'Follow-up review call after 30 days',
          '30 days of email support',
        ],
        processingTime: '10-14 business days',
        revisions: 2,
      },
    ],
    whatYouGet: [
      'Time with an experienced business consultant',
      'An objective assessment of where your business stands',
      'Clear, prioritised recommendations',
      'A written report you can share with your team or investors',
      'Templates and tools to put the plan into practice',
      'Follow-up support by email',
    ],
    requirements: [
      'A short description of your business and the challenge you want to address',
      'Recent figures such as revenue and main costs (for the Health Check and Growth Roadmap)',
      'Availability for scheduled video calls',
      'Relevant documents such as your business plan or pitch deck, if available',
    ],
    processSteps: [
      {
        step: 1,
        title: 'Book and brief',
        description: 'Choose a package and complete a short questionnaire about your business and goals.',
      },
      {
        step: 2,
        title: 'Discovery',
        description: 'Your consultant reviews your materials and meets you to clarify priorities.',
      },
      {
        step: 3,
        title: 'Analysis and recommendations',
        description: 'We analyse your situation and prepare practical, prioritised recommendations.',
      },
      {
        step: 4,
        title: 'Action and follow-up',
        description: 'You receive your written report and follow-up support while you put the plan into action.',
      },
    ],
    faqs: [
      {
        question: 'Who are the consultants?',
        answer:
          'Our consultants are experienced operators, founders and advisers with backgrounds in strategy, finance, marketing and operations. We match you with the consultant whose experience best fits your challenge.',
      },
      {
        question: 'Is my information kept confidential?',
        answer:
          'Yes. Everything you share is treated as confidential and used only to deliver your engagement. We are happy to sign a mutual non-disclosure agreement on request.',
      },
      {
        question: 'Can I move to a larger package later?',
        answer:
          'Yes. Many clients start with a Strategy Session and move on to a Health Check or Growth Roadmap once their priorities are clear.',
      },
      {
        question: 'Do you provide legal, tax or accounting advice?',
        answer:
          'No. Our consultancy covers business strategy and operations. Where legal, tax or regulated financial advice is needed, we will recommend that you speak to a qualified professional.',
      },
    ],
  },
  {
    id: 'seo-audit',
    title: 'SEO Audit',
    description:
      'Find out exactly what is holding your website back in search results. Our specialists review your technical setup, content and backlink profile, then deliver a prioritised action plan your team or developer can implement. Every audit includes a walkthrough call so you understand each recommendation.',
    category: 'marketing',
    imageUrl: '/images/services/seo-audit.svg',
    featured: false,
    packages: [
      {
        name: 'Essential Audit',
        price: '199.00',
        currency: 'USD',
        description: 'A focused audit for small websites of up to 50 pages.',
        features: [
          'Technical crawl of up to 50 pages',
          'Indexing and Google Search Console review',
          'Page speed and Core Web Vitals check',
          'On-page review of titles, headings and meta descriptions',
          'Prioritised fix list',
          '30-minute walkthrough call',
        ],
        processingTime: '5-7 business days',
        revisions: 1,
      },
      {
        name: 'Professional Audit',
        price: '399.00',
        currency: 'USD',
        description: 'A full audit for growing business websites of up to 500 pages.',
        features: [
          'Everything in Essential Audit',
          'Technical crawl of up to 500 pages',
          'Keyword and content gap analysis against three competitors',
          'Backlink profile review',
          'Structured data and internal linking review',
          '45-minute walkthrough call',
        ],
        processingTime: '7-10 business days',
        revisions: 2,
      },
      {
        name: 'Enterprise Audit',
        price: '799.00',
        currency: 'USD',
        description: 'An in-depth audit for large, e-commerce or international websites.',
        features: [
          'Everything in Professional Audit',
          'Crawl of up to 10,000 URLs',
          'Server log file analysis',
          'International SEO and hreflang review',
          'Faceted navigation and crawl budget review',
          'Developer-ready tickets for each issue',
          '90-minute walkthrough call with your team',
        ],
        processingTime: '10-15 business days',
        revisions: 3,
      },
    ],
    whatYouGet: [
      'A complete technical SEO health check',
      'On-page and content quality assessment',
      'Page speed and Core Web Vitals findings',
      'Competitor and keyword opportunity insights (Professional and Enterprise)',
      'A prioritised action plan ranked by impact and effort',
      'A walkthrough call to explain the findings',
    ],
    requirements: [
      'Your website URL and the main markets you target',
      'Read access to Google Search Console',
      'Read access to Google Analytics (recommended)',
      'A list of your main competitors and priority pages or products',
    ],
    processSteps: [
      {
        step: 1,
        title: 'Kick-off',
        description: 'You share access and goals, and we agree the scope of the audit.',
      },
      {
        step: 2,
        title: 'Crawl and analysis',
        description:
          'We crawl your site and analyse technical, content and link data alongside your Search Console data.',
      },
      {
        step: 3,
        title: 'Report and action plan',
        description: 'We document every issue with evidence, likely impact and a recommended fix, ranked by priority.',
      },
      {
        step: 4,
        title: 'Walkthrough',
        description: "We present the findings on a call and answer your team's questions.",
      },
    ],
    faqs: [
      {
        question: 'Will the audit guarantee better rankings?',
        answer:
          'No one can honestly guarantee specific rankings, because search engines control their own algorithms. The audit identifies the issues and opportunities most likely to improve your visibility, and acting on them gives you the best chance of better results.',
      },
      {
        question: 'Do you implement the fixes?',
        answer:
          'The audit covers analysis and recommendations. Your own team or developer can implement them, or we can take care of them through our SEO Management service.',
      },
      {
        question: 'What access do you need?',
        answer:
          'Read-only access to Google Search Console and, ideally, Google Analytics. We never need your website admin password for an audit.',
      },
      {
        question: 'How soon will I see results after fixing the issues?',
        answer:
          'Technical fixes can be picked up as soon as search engines recrawl your pages, which may take days or weeks. Content and authority improvements usually take several months to show their full effect.',
      },
    ],
    paypal: { enabled: false, clientId: '', hostedButtonId: '' },
  },
  {
    id: 'seo-management',
    title: 'SEO Management',
    description:
      'Ongoing, hands-on SEO to grow your organic traffic month after month. Our team handles technical fixes, content optimisation and link building, and reports clearly on what was done and what it achieved. Plans are billed monthly.',
    category: 'marketing',
    imageUrl: '/images/services/seo-management.svg',
    featured: false,
    packages: [
      {
        name: 'Starter SEO Monthly',
        price: '499.00',
        currency: 'USD',
        description: 'Essential monthly SEO for local and small business websites.',
        features: [
          'Up to 10 target keywords tracked',
          'Monthly technical health check',
          'On-page optimisation of up to 4 pages per month',
          'Google Business Profile optimisation',
          'Monthly performance report',
        ],
        processingTime: 'Onboarding within 5 business days',
        revisions: 1,
        billingInterval: 'month',
      },
      {
        name: 'Growth SEO Monthly',
        price: '999.00',
        currency: 'USD',
        description: 'Ongoing SEO for growing businesses competing in national search results.',
        features: [
          'Up to 30 target keywords tracked',
          'Technical monitoring and fixes',
          'On-page optimisation of up to 10 pages per month',
          'Two SEO-optimised articles per month',
          'Digital PR and outreach link building',
          'Monthly report and strategy call',
        ],
        processingTime: 'Onboarding within 5 business days',
        revisions: 2,
        billingInterval: 'month',
      },
      {
        name: 'Authority SEO Monthly',
        price: '1999.00',
        currency: 'USD',
        description: 'Comprehensive monthly SEO for competitive markets, e-commerce and multi-location brands.',
        features: [
          'Up to 100 target keywords tracked',
          'Dedicated SEO strategist',
          'On-page optimisation of up to 25 pages per month',
          'Four long-form articles per month',
          'Advanced digital PR campaigns',
          'Conversion rate recommendations',
          'Fortnightly strategy calls and a monthly report',
        ],
        processingTime: 'Onboarding within 7 business days',
        revisions: 3,
        billingInterval: 'month',
      },
    ],
    whatYouGet: [
      'A dedicated SEO specialist who knows your business',
      'A keyword strategy aligned with your commercial goals',
      'Ongoing technical monitoring and fixes',
      'Content optimisation and new content creation',
      'Ethical, white-hat link building',
      'Transparent monthly reporting on rankings, traffic and conversions',
    ],
    requirements: [
      'Access to Google Search Console and Google Analytics',
      'Access to your CMS, or a developer contact for technical changes',
      'A main point of contact for approvals',
      'Information about your products, services, customers and competitors',
    ],
    processSteps: [
      {
        step: 1,
        title: 'Onboarding and audit',
        description: 'We review your site, analytics and competitors to establish a baseline.',
      },
      {
        step: 2,
        title: 'Strategy and roadmap',
        description: 'Together we agree target keywords, priority pages and a 90-day roadmap.',
      },
      {
        step: 3,
        title: 'Monthly execution',
        description: 'Our team delivers technical fixes, content and outreach according to the roadmap.',
      },
      {
        step: 4,
        title: 'Reporting and review',
        description:
          'Each month you receive a report on the work completed and the results, and we adjust the plan together.',
      },
    ],
    faqs: [
      {
        question: 'When will I see results?',
        answer:
          'Many websites see early improvements within two to three months, with more significant growth building over six to twelve months. Timelines depend on your starting point, your competition and how quickly changes are implemented.',
      },
      {
        question: 'Do you guarantee first-page rankings?',
        answer:
          'No. Nobody can legitimately guarantee rankings, because search engines decide them. We commit to transparent work, best-practice techniques and honest reporting.',
      },
      {
        question: 'Is there a minimum term?',
        answer:
          'Plans are billed monthly. Because SEO results build over time, we recommend allowing at least six months before judging the impact.',
      },
      {
        question: 'Can I change plans?',
        answer: 'Yes. You can move to a different plan from the start of your next billing month as your needs change.',
      },
      {
        question: 'Who writes the content?',
        answer:
          'Experienced SEO writers on our team create the content. Your strategist reviews it and sends it to you for approval before anything is published.',
      },
    ],
    paypal: { enabled: false, clientId: '', hostedButtonId: '' },
  },
]
