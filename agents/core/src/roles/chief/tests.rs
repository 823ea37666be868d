//! The Chief's tests: deadlines, questions never sent, answers not taken, on the
//! memory bus.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use chorus_bus::memory::MemoryBus;
use chorus_bus::{
    AckToken, AgentHeartbeat, Bus, BusError, BusSettings, ClarificationNeeded, IngressFeed,
    ReportToken, Subscriber, Subscription, TokenReader, ToolInfo, Watcher,
};
use serde_json::json;

use super::*;
use crate::door::{AnswerSubmission, answer};
use crate::registry::Registry;
use crate::roles::planner::{Planner, Questions};
use crate::state::TaskState;

/// The memory bus with the shard of `clarification_needed` out while `out` is set:
/// every write to that stream fails, as on a Redis Cluster whose primary for it is
/// down (and whose replica cannot acknowledge writes until it is back).
struct ShardOut {
    inner: Arc<MemoryBus>,
    out: AtomicBool,
}

impl ShardOut {
    fn check<'a>(&self, mut topics: impl Iterator<Item = &'a Topic>) -> Result<(), BusError> {
        let down = Topic::clarification_needed();
        if self.out.load(Ordering::SeqCst) && topics.any(|t| *t == down) {
            return Err(BusError::Transport(
                "CLUSTERDOWN The cluster is down".into(),
            ));
        }
        Ok(())
    }
}

#[async_trait]
impl Bus for ShardOut {
    async fn publish(&self, msg: &Message) -> Result<String, BusError> {
        self.check([&msg.topic].into_iter())?;
        self.inner.publish(msg).await
    }
    async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        self.inner.announce(msg).await
    }
    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        self.check(msgs.iter().map(|m| &m.topic))?;
        self.inner.publish_many(msgs).await
    }
    async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        self.check([&msg.topic].into_iter())?;
        self.inner.publish_once(key, ttl, msg).await
    }
    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        self.check(items.iter().map(|(_, m)| &m.topic))?;
        self.inner.publish_guarded(guard, value, items, ttl).await
    }
    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError> {
        self.inner.subscribe(sub).await
    }
    async fn watch(&self, topics: &[Topic]) -> Result<Box<dyn Watcher>, BusError> {
        self.inner.watch(topics).await
    }
    async fn ingress(&self, topic: &Topic) -> Result<Box<dyn IngressFeed>, BusError> {
        self.inner.ingress(topic).await
    }
    async fn ack(&self, role: &str, tokens: &[AckToken]) -> Result<(), BusError> {
        self.inner.ack(role, tokens).await
    }
    async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[AckToken],
    ) -> Result<(), BusError> {
        self.inner.keep_alive(role, consumer, tokens).await
    }
    fn claim_idle(&self) -> Duration {
        self.inner.claim_idle()
    }
    async fn recent(&self, topic: &Topic, count: usize) -> Result<Vec<Message>, BusError> {
        self.inner.recent(topic, count).await
    }
    async fn append_tokens(
        &self,
        task: &TaskId,
        tokens: &[ReportToken],
        ttl: Duration,
    ) -> Result<usize, BusError> {
        self.inner.append_tokens(task, tokens, ttl).await
    }
    async fn read_tokens(&self, task: &TaskId) -> Result<Box<dyn TokenReader>, BusError> {
        self.inner.read_tokens(task).await
    }
}

/// How long a question waits for its answer in these tests.
const ANSWER_TIMEOUT: Duration = Duration::from_millis(400);

struct Setup {
    memory: Arc<MemoryBus>,
    bus: Arc<ShardOut>,
    state: TaskState,
    chief: Chief,
    planner: Planner,
}

/// A Chief and a Planner (a live math agent offering `divide`) on the memory bus,
/// with `clarification_needed`'s shard out.
async fn setup() -> Setup {
    let memory = Arc::new(MemoryBus::new(BusSettings::default()));
    let state = TaskState::new(Arc::new(memory.store()), Duration::from_secs(60));
    let bus = Arc::new(ShardOut {
        inner: memory.clone(),
        out: AtomicBool::new(true),
    });
    let registry = Registry::new(state.clone());
    registry
        .beat(&AgentHeartbeat {
            role: "pool-math".into(),
            instance: "pool-math-1".into(),
            pool: Some("math".into()),
            tools: vec![ToolInfo {
                name: "divide".into(),
                description: String::new(),
                input_schema: json!({"type": "object"}),
            }],
            ttl_ms: 60_000,
        })
        .await
        .expect("beat");
    let questions = Questions {
        max: 3,
        answer_timeout: ANSWER_TIMEOUT,
    };
    let planner = Planner::new(
        Ctx::new(bus.clone(), state.clone(), "planner"),
        registry,
        vec!["math".into()],
    )
    .with_questions(questions);
    let chief = Chief::new(
        Ctx::new(bus.clone(), state.clone(), "chief"),
        Duration::from_secs(10),
    )
    .with_answer_timeout(ANSWER_TIMEOUT);
    Setup {
        memory,
        bus,
        state,
        chief,
        planner,
    }
}

fn delivery(msg: &Message, deliveries: u64) -> Delivery {
    Delivery {
        topic: msg.topic.clone(),
        entry_id: "1-0".into(),
        partition: 0,
        deliveries,
        message: msg.clone(),
        bare: false,
    }
}

/// "divide 10 by", whose deadline is 300 ms away, accepted by the Chief and
/// delivered to the Planner `deliveries` times.
async fn ask(s: &Setup, deliveries: u64) -> (TaskId, Message) {
    let task = TaskId::from("q-1");
    let mut request = Message::new(
        task.clone(),
        Topic::task_available(),
        "client",
        Payload::TaskAvailable(TaskRequest {
            query: "divide 10 by".into(),
            context: Default::default(),
        }),
    );
    request.deadline_ms = Some(Deadline::after(Duration::from_millis(300)));
    s.chief
        .handle(&delivery(&request, 1))
        .await
        .expect("opened");
    for n in 1..=deliveries {
        let _ = s.planner.handle(&delivery(&request, n)).await;
    }
    (task, request)
}

async fn questions(s: &Setup) -> Vec<Message> {
    s.memory
        .recent(&Topic::clarification_needed(), 10)
        .await
        .expect("read")
}

fn question(msg: &Message) -> &ClarificationNeeded {
    match &msg.payload {
        Payload::ClarificationNeeded(q) => q,
        other => panic!("not a question: {other:?}"),
    }
}

#[tokio::test]
async fn a_question_whose_every_publish_failed_is_sent_by_the_chief_at_the_deadline_once() {
    let s = setup().await;
    // Every delivery of the request pauses the task and fails to ask, until the
    // Planner's group gives up on it (5 deliveries, then a dead letter).
    let (task, request) = ask(&s, 5).await;
    assert!(questions(&s).await.is_empty());
    assert!(
        s.state.open_question(&task).await.expect("read").is_some(),
        "paused on a question nobody was asked"
    );
    s.bus.out.store(false, Ordering::SeqCst);
    s.chief.check_deadlines().await;
    assert!(questions(&s).await.is_empty(), "not before the deadline");

    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    s.chief.check_deadlines().await;
    let asked = questions(&s).await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].from_agent.starts_with("chief-"), "{asked:?}");
    assert_eq!(asked[0].task_id, task);
    assert_eq!(asked[0].deadline_ms, None, "paused");
    let q = question(&asked[0]);
    assert_eq!(
        (q.number, q.query.as_str(), q.part.as_str()),
        (1, "divide 10 by", "divide 10 by")
    );
    assert_eq!(
        q.question,
        "\"divide 10 by\" is missing a number: which number?"
    );
    // The deadline stays paused: out of the deadline watch, waiting for the answer.
    assert!(s.state.due(u64::MAX, 10).await.expect("due").is_empty());
    assert_eq!(s.state.unanswered(u64::MAX, 10).await.expect("w"), ["q-1"]);
    assert_eq!(
        s.state.deadline_now(&task).await.expect("read"),
        DeadlineNow::Paused
    );
    // The Planner, given the request once more, asks nothing more.
    s.planner
        .handle(&delivery(&request, 6))
        .await
        .expect("handled");
    assert_eq!(questions(&s).await.len(), 1);

    // The answer comes: the Planner plans with it, and the deadline runs again.
    let answered = answer(
        s.bus.as_ref(),
        &s.state,
        AnswerSubmission {
            task_id: "q-1".into(),
            answer: "4".into(),
            question: None,
            from: "test".into(),
        },
    )
    .await
    .expect("answer taken");
    assert_eq!(answered.number, 1);
    s.planner
        .handle(&delivery(&answered.message, 1))
        .await
        .expect("planned");
    let plans = s
        .memory
        .recent(&Topic::plan_ready(), 10)
        .await
        .expect("read");
    let [plan] = plans.as_slice() else {
        panic!("{} plans", plans.len())
    };
    let Payload::PlanReady(plan) = &plan.payload else {
        panic!("not a plan")
    };
    assert_eq!(plan.query, "divide 10 by 4");
    assert_eq!(plan.plan.steps.len(), 1);
    assert_eq!(plan.plan.steps[0].tool, "divide");
    assert_eq!(s.state.due(u64::MAX, 10).await.expect("due"), ["q-1"]);
    assert!(matches!(
        s.state.deadline_now(&task).await.expect("read"),
        DeadlineNow::Resumed(_)
    ));
    assert_eq!(s.memory.len(&Topic::final_report()), 0);
}

#[tokio::test]
async fn a_question_the_chief_sent_and_nobody_answers_ends_in_one_unanswered_report() {
    let s = setup().await;
    let (task, _) = ask(&s, 5).await;
    s.bus.out.store(false, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    assert_eq!(questions(&s).await.len(), 1);
    // The answer timeout runs from when the question went out.
    s.chief.check_deadlines().await;
    assert_eq!(s.memory.len(&Topic::final_report()), 0, "not yet");
    tokio::time::sleep(ANSWER_TIMEOUT + Duration::from_millis(50)).await;
    s.chief.check_deadlines().await;
    s.chief.check_deadlines().await;
    let reports = s
        .memory
        .recent(&Topic::final_report(), 10)
        .await
        .expect("read");
    let [report] = reports.as_slice() else {
        panic!("{} reports", reports.len())
    };
    assert_eq!(report.task_id, task);
    let Payload::FinalReport(report) = &report.payload else {
        panic!("not a report")
    };
    assert_eq!(report.status, ReportStatus::Unanswered);
    assert!(
        report.text.contains("is missing a number: which number?"),
        "{}",
        report.text
    );
    assert!(
        s.state
            .unanswered(u64::MAX, 10)
            .await
            .expect("w")
            .is_empty()
    );
}

/// Answers question 1 of "q-1" with "4" through the one way in for answers.
async fn answer_4(s: &Setup) -> Message {
    answer(
        s.bus.as_ref(),
        &s.state,
        AnswerSubmission {
            task_id: "q-1".into(),
            answer: "4".into(),
            question: None,
            from: "test".into(),
        },
    )
    .await
    .expect("answer taken")
    .message
}

#[tokio::test]
async fn an_answer_not_taken_by_the_deadline_moves_the_deadline_and_the_planner_still_plans_it() {
    let s = setup().await;
    s.bus.out.store(false, Ordering::SeqCst);
    let (task, _) = ask(&s, 1).await;
    let answered = answer_4(&s).await;
    // The deadline the task was opened with passes before the Planner takes the
    // answer (it was killed; the answer waits for its redelivery): no report, the
    // deadline runs from the answer.
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    assert_eq!(s.memory.len(&Topic::final_report()), 0);
    assert_eq!(s.state.due(u64::MAX, 10).await.expect("due"), ["q-1"]);
    assert!(s.state.due(now_ms(), 10).await.expect("due").is_empty());
    s.planner
        .handle(&delivery(&answered, 2))
        .await
        .expect("planned");
    let plans = s
        .memory
        .recent(&Topic::plan_ready(), 10)
        .await
        .expect("read");
    assert_eq!(plans.len(), 1);
    let Payload::PlanReady(plan) = &plans[0].payload else {
        panic!("not a plan")
    };
    assert_eq!(plan.query, "divide 10 by 4");
    assert!(matches!(
        s.state.deadline_now(&task).await.expect("read"),
        DeadlineNow::Resumed(_)
    ));
    assert_eq!(s.memory.len(&Topic::final_report()), 0);
}

#[tokio::test]
async fn an_answer_the_planner_never_takes_ends_in_one_deadline_report() {
    let s = setup().await;
    s.bus.out.store(false, Ordering::SeqCst);
    let (task, _) = ask(&s, 1).await;
    answer_4(&s).await;
    // The Planner's group gives up on the answer: it is never delivered here.
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    assert_eq!(s.memory.len(&Topic::final_report()), 0, "not yet");
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    s.chief.check_deadlines().await;
    let reports = s
        .memory
        .recent(&Topic::final_report(), 10)
        .await
        .expect("read");
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(task, reports[0].task_id);
    let Payload::FinalReport(report) = &reports[0].payload else {
        panic!("not a report")
    };
    assert_eq!(report.status, ReportStatus::DeadlineExceeded);
    assert!(
        report
            .text
            .contains("planning did not finish before the deadline"),
        "{}",
        report.text
    );
    assert!(s.state.due(u64::MAX, 10).await.expect("due").is_empty());
}

#[tokio::test]
async fn an_answer_taken_after_the_deadline_but_never_resumed_ends_in_one_report() {
    let s = setup().await;
    s.bus.out.store(false, Ordering::SeqCst);
    ask(&s, 1).await;
    // The deadline passes while the task waits: the watch lets it go.
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    assert!(s.state.due(u64::MAX, 10).await.expect("due").is_empty());
    answer_4(&s).await;
    // The Planner never takes the answer. At the answer timeout the task is back in
    // the deadline watch, with the time it had left when it asked (about 300 ms).
    tokio::time::sleep(ANSWER_TIMEOUT).await;
    s.chief.check_deadlines().await;
    assert_eq!(s.memory.len(&Topic::final_report()), 0, "not yet");
    assert_eq!(s.state.due(u64::MAX, 10).await.expect("due"), ["q-1"]);
    assert!(
        s.state
            .unanswered(u64::MAX, 10)
            .await
            .expect("w")
            .is_empty()
    );
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    s.chief.check_deadlines().await;
    let reports = s
        .memory
        .recent(&Topic::final_report(), 10)
        .await
        .expect("read");
    let [report] = reports.as_slice() else {
        panic!("{} reports", reports.len())
    };
    let Payload::FinalReport(report) = &report.payload else {
        panic!("not a report")
    };
    assert_eq!(report.status, ReportStatus::DeadlineExceeded);
    assert!(s.state.due(u64::MAX, 10).await.expect("due").is_empty());
}

#[tokio::test]
async fn a_question_that_went_out_is_not_sent_again_at_the_deadline() {
    let s = setup().await;
    s.bus.out.store(false, Ordering::SeqCst);
    let (task, _) = ask(&s, 1).await;
    let asked = questions(&s).await;
    assert_eq!(asked.len(), 1);
    assert!(asked[0].from_agent.starts_with("planner-"), "{asked:?}");
    assert_eq!(s.state.due(u64::MAX, 10).await.expect("due"), ["q-1"]);
    tokio::time::sleep(Duration::from_millis(350)).await;
    s.chief.check_deadlines().await;
    assert_eq!(questions(&s).await.len(), 1);
    assert!(s.state.due(u64::MAX, 10).await.expect("due").is_empty());
    assert_eq!(
        s.state.deadline_now(&task).await.expect("read"),
        DeadlineNow::Paused
    );
    assert_eq!(s.memory.len(&Topic::final_report()), 0);
}
