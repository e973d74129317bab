// in the build.gradle.kts of a Spring Boot 4.1 application (plugins org.springframework.boot and
// io.spring.dependency-management, as Spring Initializr sets them up)
repositories {
    mavenCentral()
    mavenLocal()   // zklock, installed from a clone while it is not on Maven Central
}

dependencies {
    implementation(platform("io.zklock:zklock-dependencies:1.0.0"))
    // zklock, plus what its in-process ZooKeeper server needs for development;
    // zklock-spring-boot-starter alone is enough where you always use an ensemble
    implementation("io.zklock:zklock-spring-boot-starter-embedded")
    // optional: health, metrics and the locks endpoint
    implementation("org.springframework.boot:spring-boot-starter-actuator")
}
