//! A handler waiting on something outside its role — here a model call — gives its
//! in-flight place back meanwhile: with one place, a delivery whose handler waits on the
//! model does not stop the next delivery from being handled, and is itself handled (and
//! acked) once the wait ends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

mod common;

use async_trait::async_trait;
use chorus_bus::*;
use chorus_core::llm::model_call;
use chorus_core::runtime::{HandleError, Handler, Shutdown, run_loop};
use tokio::sync::Notify;

/// Records the tasks it finished, in order; the task `waits` waits on a "model" (a
/// notification) that is given only once another task has been handled.
struct WaitsOnModel {
    model_answers: Notify,
    finished: Mutex<Vec<String>>,
}

#[async_trait]
impl Handler for WaitsOnModel {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let task = delivery.message.task_id.to_string();
        if task == "waits" {
            model_call(self.model_answers.notified()).await;
        } else {
            // The model answers once any other task has been handled.
            self.model_answers.notify_one();
        }
        self.finished.lock().unwrap().push(task);
        Ok(())
    }
}

#[tokio::test]
async fn a_delivery_waiting_on_the_model_holds_no_place_and_is_handled_after() {
    let bus = MemoryBus::new(BusSettings {
        block_ms: 20,
        ..BusSettings::default()
    });
    let topic = Topic::pool_task("math");
    let handler = Arc::new(WaitsOnModel {
        model_answers: Notify::new(),
        finished: Mutex::new(Vec::new()),
    });
    let (stop, shutdown) = Shutdown::new();
    let sub = Subscription::new("math", vec![topic.clone()]);
    let looped = tokio::spawn(run_loop(
        Arc::new(bus.clone()),
        sub,
        handler.clone(),
        1, // one place: the waiting delivery would hold it if it kept it
        false,
        shutdown,
    ));
    bus.publish(&common::math_step("waits")).await.unwrap();
    bus.publish(&common::math_step("quick")).await.unwrap();
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while (handler.finished.lock().unwrap().len() < 2 || bus.pending(&topic, "math") > 0)
        && tokio::time::Instant::now() < until
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The quick one was handled while the other waited (the model answered only after
    // it), then the waiting one; both acked. (Checked before stopping: had the waiting
    // delivery kept its place, the quick one would never run, nor the loop stop.)
    assert_eq!(*handler.finished.lock().unwrap(), ["quick", "waits"]);
    assert_eq!(bus.pending(&topic, "math"), 0);
    stop.trigger();
    looped.await.unwrap().unwrap();
}
